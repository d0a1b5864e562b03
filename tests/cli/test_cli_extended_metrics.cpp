// The `extended` collector end to end: a workflow whose runs fail until a counter kept
// outside the workspace reaches 3, run by the real binary under run-scenarios with one
// worker, so the cells' entropy, antifragility and resilience follow from known runs; and,
// with the default metrics, throughput, recovery_time, safety_rating, risk_index and the
// runs' block I/O, checked against what metrics.db recorded of the same runs.
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
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
                           "'shannon_entropy', 'outcome_entropy', 'antifragility', "
                           "'resilience'"),
              "normal|antifragility|1.000\nnormal|outcome_entropy|0.500\n"
              "normal|resilience|1.000\nnormal|shannon_entropy|1.000\n"
              "later|antifragility|0.000\nlater|outcome_entropy|0.000\n"
              "later|resilience|2.000\nlater|shannon_entropy|1.000\n");
    // The counterfactual runs `true`: every run alike and passing.
    EXPECT_EQ(
        cell_metrics(data, "off", "'shannon_entropy', 'outcome_entropy', 'resilience'"),
        "normal|outcome_entropy|0.000\nnormal|resilience|1.000\nnormal|shannon_entropy|0.000\n"
        "later|outcome_entropy|0.000\nlater|resilience|1.000\nlater|shannon_entropy|0.000\n");

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

// What the default settings record with no `metrics:` key: every run writes 1 MiB to a file
// of its workspace and syncs it; the first crashes (SIGSEGV), the second fails, the last two
// pass.
TEST_F(ExtendedMetrics, DefaultMetricsOfRealRunsWithTheirBlockIo) {
    const std::string counter = dir_ + "/count";
    write_settings(
        R"(
scenarios: [{name: normal}]
workflows:
  - name: writes
    filesystem: host
    steps:
      - name: attempt
        run: [/bin/sh, -c, 'n=$(($(cat ")" +
        counter + R"(" 2>/dev/null || echo 0) + 1)); echo $n > ")" + counter +
        R"("; dd if=/dev/zero of=out.bin bs=64k count=16 conv=fsync 2>/dev/null; [ $n -ne 1 ] || kill -SEGV $$; [ $n -gt 2 ]']
)");
    const std::string data = dir_ + "/data";
    const auto result =
        sbx::test::run_command({SBX_BINARY, "--config", settings_, "--data-dir", data,
                                "run-scenarios", "writes", "--repetitions", "4", "--workers", "1"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    // The default collectors' metrics are recorded, not listed under the text report.
    EXPECT_EQ(result.out.find("metrics:"), std::string::npos) << result.out;

    // safety_rating: 1 crash of 4 runs; risk_index: the Wilson bound of 2 failures in 4;
    // recovery_time 0 s and safety 1 for the counterfactual (`true`, every run passes).
    EXPECT_EQ(cell_metrics(data, "on", "'safety_rating', 'risk_index'"),
              "normal|risk_index|0.850\nnormal|safety_rating|0.750\n");
    EXPECT_EQ(cell_metrics(data, "off", "'safety_rating', 'risk_index', 'recovery_time'"),
              "normal|recovery_time|0.000\nnormal|risk_index|0.490\nnormal|safety_rating|1.000\n");

    // throughput = passing runs / the runs' step wall time; recovery_time = the wall time of
    // the two failing runs before the first pass: both from the steps metrics.db recorded.
    const auto timing = sbx::test::run_command(
        {"/usr/bin/sqlite3", data + "/metrics.db",
         "SELECT printf('%.9f', abs((SELECT value FROM metrics WHERE cell_id = c.id AND name = "
         "'throughput') - 2.0 / (SELECT sum(s.wall_s) FROM steps s JOIN runs r ON r.id = "
         "s.run_id WHERE r.flag = 'on'))), printf('%.9f', abs((SELECT value FROM metrics WHERE "
         "cell_id = c.id AND name = 'recovery_time') - (SELECT sum(s.wall_s) FROM steps s JOIN "
         "runs r ON r.id = s.run_id WHERE r.flag = 'on' AND r.repetition < 2))), (SELECT "
         "count(*) FROM metrics WHERE cell_id = c.id AND name IN ('throughput', "
         "'recovery_time')) FROM cells c WHERE c.flag = 'on'"});
    EXPECT_EQ(timing.out, "0.000000000|0.000000000|2\n") << timing.err;

    // The block I/O of each run, as the local executor counted it: the 1 MiB each on-run
    // wrote and synced; next to nothing for `true`. A workspace on a filesystem without a
    // block device of its own (tmpfs, 9p, overlayfs: an anonymous device, major 0) does no
    // block I/O at all, so there every run counts next to nothing.
    const char *tmpdir = std::getenv("TMPDIR");
    struct stat where {};
    ASSERT_EQ(::stat(tmpdir != nullptr ? tmpdir : "/tmp", &where), 0);
    const bool block_device = major(where.st_dev) != 0;
    const auto writes = sbx::test::run_command(
        {"/usr/bin/sqlite3", data + "/metrics.db",
         "SELECT r.flag, r.repetition, m.value >= 1048576, m.value < 262144, (SELECT count(*) "
         "FROM metrics WHERE run_id = r.id AND name = 'disk_read_bytes') FROM runs r JOIN "
         "metrics m ON m.run_id = r.id AND m.name = 'disk_write_bytes' ORDER BY r.flag DESC, "
         "r.repetition"});
    const std::string on_runs = block_device ? "on|0|1|0|1\non|1|1|0|1\non|2|1|0|1\non|3|1|0|1\n"
                                             : "on|0|0|1|1\non|1|0|1|1\non|2|0|1|1\non|3|0|1|1\n";
    EXPECT_EQ(writes.out, on_runs + "off|0|0|1|1\noff|1|0|1|1\noff|2|0|1|1\noff|3|0|1|1\n")
        << writes.err;
}

}  // namespace
