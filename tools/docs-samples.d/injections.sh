# docs/user-guide.md, "run-scenarios": what an injector reported, from the tour's matrix.
@after run-scenarios-demo
sqlite3 sandbox_data/metrics.db "SELECT json_extract(result, '$.injections') FROM steps
    WHERE json_extract(result, '$.injections') IS NOT NULL LIMIT 1"
