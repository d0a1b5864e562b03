# docs/user-guide.md, find-boundaries: the demo workflow's memory and CPU boundaries (not
# CONCURRENCY_LEVEL: its copies race, so where they start losing writes varies by a level).
build/bin/sandbox-runner find-boundaries demo-kv --axis MEMORY_LIMIT --axis CPU_LIMIT --runs 2 --seed 7 --workers 1
