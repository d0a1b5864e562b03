# docs/cli.md, find-boundaries: a planted boundary on a key of the target's own, with every probe.
@ cp "$SAMPLES/files/planted-load.yaml" planted.yaml
build/bin/sandbox-runner --config planted.yaml find-boundaries planted --axis LOAD:0:100:1 --runs 1 --seed 3 --workers 1 --preset-debug
