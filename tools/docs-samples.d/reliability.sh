# docs/cli.md, show-reliability: a planted ROI series, then each predictor's error on it.
@ sed "s|SAMPLE_DIR|$PWD|" "$SAMPLES/files/planted.yaml" > planted.yaml
@ for passes in 1 2 2 3 4 3 3 4; do echo $passes > passes; build/bin/sandbox-runner --config planted.yaml run -w planted --runs 4 --workers 1 --seed 1 > /dev/null || exit; done
build/bin/sandbox-runner --config planted.yaml show-reliability
