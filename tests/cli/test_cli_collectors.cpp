// The `security` collector end to end: real programs compiled here with and without
// hardening, real Python scripts with and without a Bandit finding, a shell snippet for
// ShellCheck, run by the real binary under run-scenarios; rank-scenarios prints the score
// each workflow's weakest code earned.
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_fixture.hpp"

namespace {

using nlohmann::json;

// strcpy into a sized buffer and printf: FORTIFY turns them into __strcpy_chk and
// __printf_chk, and the stack protector guards the buffer.
constexpr const char *kProgram = R"(#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
    char buffer[64];
    strcpy(buffer, argc > 1 ? argv[1] : "ok");
    printf("%s\n", buffer);
    return 0;
}
)";

class SecurityCollector : public sbx::test::CliTest {
  protected:
    // Compiles kProgram with `flags` into the scratch dir; returns its path.
    std::string compile(const std::string &name, const std::vector<std::string> &flags) {
        const std::string source = write_file("program.c", kProgram);
        std::string binary = dir_ + "/" + name;
        std::vector<std::string> argv = {"/usr/bin/cc"};
        argv.insert(argv.end(), flags.begin(), flags.end());
        argv.insert(argv.end(), {source, "-o", binary});
        const auto built = sbx::test::run_command(argv);
        EXPECT_EQ(built.exit_code, 0) << built.err;
        return binary;
    }

    // `rank-scenarios` of the data dir `data`, as printed.
    std::string ranked(const std::string &data) {
        const auto result = sbx::test::run_command({SBX_BINARY, "rank-scenarios", data});
        EXPECT_EQ(result.exit_code, 0) << result.err;
        return result.out;
    }
};

TEST_F(SecurityCollector, RanksTheWeakestCodeOfEachWorkflow) {
    const std::string hardened =
        compile("hardened", {"-O2", "-D_FORTIFY_SOURCE=2", "-fstack-protector-strong", "-fPIE",
                             "-pie", "-Wl,-z,relro,-z,now"});
    const std::string unhardened =
        compile("unhardened", {"-O0", "-U_FORTIFY_SOURCE", "-fno-stack-protector", "-fno-pie",
                               "-no-pie", "-Wl,-z,norelro", "-Wl,-z,execstack"});
    // B404 (low: importing subprocess) and B602 (high: a shell built from input).
    const std::string finding =
        write_file("finding.py",
                   "import subprocess\nimport sys\nsubprocess.call('ls ' + sys.argv[0], "
                   "shell=True)\n");
    const std::string clean = write_file("clean.py", "print('ok')\n");
    write_settings(R"(
metrics: [process_metrics, security]
scenarios: [{name: normal}]
workflows:
  - name: hardened
    filesystem: host
    steps:
      - run: [")" + hardened +
                   R"(", hi]
      - run: [python3, ")" +
                   clean + R"("]
  - name: unhardened
    filesystem: host
    steps:
      - run: [")" + unhardened +
                   R"(", hi]
      - run: [python3, ")" +
                   clean + R"("]
  - name: finding
    filesystem: host
    steps:
      - run: [")" + hardened +
                   R"(", hi]
      - run: [python3, ")" +
                   finding + R"("]
  - name: unquoted
    steps:
      - run: [/bin/sh, -c, 'echo $0']
)");
    std::map<std::string, std::string> ranks;
    for (const std::string workflow : {"hardened", "unhardened", "finding", "unquoted"}) {
        SCOPED_TRACE(workflow);
        const std::string data = dir_ + "/data-" + workflow;
        const auto result =
            sbx::test::run_command({SBX_BINARY, "--config", settings_, "--data-dir", data,
                                    "run-scenarios", workflow, "--repetitions", "2", "--json"});
        ASSERT_EQ(result.exit_code, 0) << result.err;
        ranks[workflow] = ranked(data);
    }
    // Full hardening and no finding: 1. No PIE, RELRO, NX, canary nor FORTIFY: 0. Bandit's
    // high and low findings weigh 1.1: 1 / 2.1. ShellCheck's SC2086 (info) weighs 0.1.
    EXPECT_EQ(ranks["hardened"],
              "normal ROI=1.000 (sum of 1 cell, mean 1.000) security_score=1.000\n");
    EXPECT_EQ(ranks["unhardened"],
              "normal ROI=1.000 (sum of 1 cell, mean 1.000) security_score=0.000\n");
    EXPECT_EQ(ranks["finding"],
              "normal ROI=1.000 (sum of 1 cell, mean 1.000) security_score=0.476\n");
    EXPECT_EQ(ranks["unquoted"],
              "normal ROI=1.000 (sum of 1 cell, mean 1.000) security_score=0.909\n");

    // Each run checked its two pieces of code (the interpreter's own binary is not one); the
    // counterfactual's `true` is not the workflow's code and gets no score.
    const auto checked = sbx::test::run_command(
        {"/usr/bin/sqlite3", dir_ + "/data-finding/metrics.db",
         "SELECT r.flag, m.name, printf('%.3f', m.value) FROM metrics m JOIN runs r ON r.id = "
         "m.run_id WHERE m.name LIKE 'security%' ORDER BY r.flag, r.id, m.name"});
    EXPECT_EQ(checked.out,
              "on|security_checked|2.000\non|security_score|0.476\non|security_unchecked|0.000\n"
              "on|security_checked|2.000\non|security_score|0.476\non|security_unchecked|0.000\n")
        << checked.err;
}

}  // namespace
