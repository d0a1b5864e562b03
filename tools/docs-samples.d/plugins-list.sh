# README, "A five-minute tour" 1: every plugin the build made, with its ABI.
build/bin/sandbox-runner plugins list
