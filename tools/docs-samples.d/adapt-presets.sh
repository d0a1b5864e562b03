# docs/cli.md, adapt-presets: a planted boundary on a key of the target's own, with every probe.
@ cp "$SAMPLES/files/planted-load.yaml" planted.yaml
build/bin/sandbox-runner --config planted.yaml adapt-presets planted --axis LOAD:0:100:1 --runs 1 --seed 3 --workers 1 --preset-debug
