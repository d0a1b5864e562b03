# docs/user-guide.md, "simulate-temporal-trajectory".
build/bin/sandbox-runner simulate-temporal-trajectory demo-kv --repetitions 4 --seed 7 --workers 1
