// The `extended` collector end to end: a workflow whose runs fail until a counter kept
// outside the workspace reaches 3, run by the real binary under run-scenarios with one
// worker, so the cells' entropy, antifragility and resilience follow from known runs.
#include <map>
#include <string>

#include "cli_fixture.hpp"

namespace {

class ExtendedMetrics : public sbx::test::CliTest {
  protected:
    // The cell metrics of `flag` cells as "scenario metric value" lines, by scenario order.
    std::string cell_metrics(const std::string &data, const std::string &flag,
                             const std::string &names) {
        const auto rows = sbx::test::run_command(
            {"/usr/bin/sqlite3", data + "/metrics.db",
             "SELECT p.name, m.name, printf('%.3f', m.value) FROM metrics m JOIN cells c ON "
             "c.id = m.cell_id JOIN presets p ON p.id = c.preset_id WHERE c.flag = '" +
                 flag + "' AND m.name IN (" + names + ") ORDER BY c.id, m.name"});
        EXPECT_EQ(rows.exit_code, 0) << rows.err;
        return rows.out;
    }
};

TEST_F(ExtendedMetrics, EntropyAntifragilityAndResilienceOfKnownRuns) {
    const std::string counter = dir_ + "/count";
    write_settings(R"(
metrics: [process_metrics, extended]
scenarios: [{name: normal}, {name: later}]
workflows:
  - name: learns
    filesystem: host
    steps:
      - name: attempt
        run: [/bin/sh, -c, 'n=$(($(cat ")" +
                   counter + R"(" 2>/dev/null || echo 0) + 1)); echo $n > ")" + counter +
                   R"("; echo "attempt $n"; [ $n -gt 2 ]']
)");
    const std::string data = dir_ + "/data";
    const auto result = sbx::test::run_command({SBX_BINARY, "--config", settings_, "--data-dir",
                                                data, "run-scenarios", "learns", "--repetitions",
                                                "4", "--workers", "1", "--json"});
    ASSERT_EQ(result.exit_code, 0) << result.err;

    // normal: attempts 1 and 2 fail (RE), 3 and 4 pass; ROI 0.5. Four different outputs:
    // entropy 1. Outcomes {RE: 2, pass: 2}: 1 bit of log2(4), 0.5. Later half 2 passes,
    // earlier half 0: antifragility 1. later: attempts 5 to 8 all pass, ROI 1: resilience
    // 1 / 0.5, every run another output, one outcome, no change over time.
    EXPECT_EQ(cell_metrics(data, "on",
                           "'shannon_entropy', 'failure_entropy', 'antifragility', "
                           "'resilience'"),
              "normal|antifragility|1.000\nnormal|failure_entropy|0.500\n"
              "normal|resilience|1.000\nnormal|shannon_entropy|1.000\n"
              "later|antifragility|0.000\nlater|failure_entropy|0.000\n"
              "later|resilience|2.000\nlater|shannon_entropy|1.000\n");
    // The counterfactual runs `true`: every run alike and passing.
    EXPECT_EQ(
        cell_metrics(data, "off", "'shannon_entropy', 'failure_entropy', 'resilience'"),
        "normal|failure_entropy|0.000\nnormal|resilience|1.000\nnormal|shannon_entropy|0.000\n"
        "later|failure_entropy|0.000\nlater|resilience|1.000\nlater|shannon_entropy|0.000\n");

    // efficiency = 1 / (1 + CPU seconds of the cell per passing run), from the runs' own
    // recorded cpu_s; both must be there (SQLite prints a NULL difference as 0).
    const auto efficiency = sbx::test::run_command(
        {"/usr/bin/sqlite3", data + "/metrics.db",
         "SELECT printf('%.6f', e - 1.0 / (1.0 + cpu / passed)), e IS NULL, cpu IS NULL FROM "
         "(SELECT c.id AS id, c.passed AS passed, (SELECT value FROM metrics WHERE cell_id = "
         "c.id AND name = 'efficiency') AS e, (SELECT sum(m.value) FROM metrics m JOIN runs r "
         "ON r.id = m.run_id WHERE m.name = 'cpu_s' AND r.session_id = c.session_id AND "
         "r.workflow = c.workflow AND r.preset_id = c.preset_id AND r.flag = c.flag) AS cpu "
         "FROM cells c WHERE c.flag = 'on') ORDER BY id"});
    EXPECT_EQ(efficiency.out, "0.000000|0|0\n0.000000|0|0\n") << efficiency.err;
}

}  // namespace
