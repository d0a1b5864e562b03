// The `coverage` collector end to end: a program compiled here with --coverage, run by the
// real binary under run-scenarios in the default read-only view, with `coverage_capture`
// giving it GCOV_PREFIX; the system's gcov reads what it wrote. Under `normal` it takes one
// branch; the hostile stub's payloads drive it into two more.
#include <signal.h>
#include <sys/wait.h>

#include <filesystem>
#include <string>

#include "cli_fixture.hpp"
#include "wait.hpp"

namespace {

// Three branches: a '%' (format strings), a '$' (shell injection), anything else.
constexpr const char *kProgram = R"(#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
    const char *text = argc > 1 ? argv[1] : "";
    if (strchr(text, '%')) {
        puts("percent");
        return 0;
    }
    if (strchr(text, '$')) {
        puts("dollar");
        return 0;
    }
    puts("plain");
    return 0;
}
)";

// The same three branches in Python; then the module search path, which must be the one a
// native run sees.
constexpr const char *kScript = R"(import json
import sys
text = sys.argv[1] if len(sys.argv) > 1 else ""
if "%" in text:
    print("percent")
elif "$" in text:
    print("dollar")
else:
    print("plain")
print(json.dumps(sys.path))
)";

class Coverage : public sbx::test::CliTest {
  protected:
    // Compiles kProgram with --coverage into the scratch dir; returns its path.
    std::string compile() {
        const std::string source = write_file("branches.c", kProgram);
        std::string binary = dir_ + "/branches";
        const auto built = sbx::test::run_command(
            {"/usr/bin/gcc", "--coverage", "-O0", source, "-o", binary}, {}, dir_);
        EXPECT_EQ(built.exit_code, 0) << built.err;
        return binary;
    }

    std::string query(const std::string &data, const std::string &sql) {
        const auto rows = sbx::test::run_command({"/usr/bin/sqlite3", data + "/metrics.db", sql});
        EXPECT_EQ(rows.exit_code, 0) << rows.err;
        return rows.out;
    }

    // Runs `run` with its input under `normal` and `hostile_input` (2 and 13 runs), with one
    // worker, so `normal` ends first; returns the data dir.
    std::string run_matrix(const std::string &run, const std::string &filesystem) {
        write_settings(R"(
extends: default
injectors: [+coverage_capture]
metrics: [+coverage]
scenarios: [{name: normal}, {name: hostile_input}]
workflows:
  - name: branches
    filesystem: )" + filesystem +
                       R"(
    steps:
      - run: )" + run + R"(
        inputs: {text: {example: plain}}
)");
        std::string data = dir_ + "/data";
        const auto result = sbx::test::run_command(
            {SBX_BINARY, "--config", settings_, "--data-dir", data, "run-scenarios", "branches",
             "--repetitions", "2", "--workers", "1", "--seed", "7"});
        EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
        return data;
    }

    // The on-cells' coverage metrics, as "scenario|metric|value" lines.
    std::string cell_coverage(const std::string &data) {
        return query(data,
                     "SELECT p.name, m.name, printf('%.3f', m.value) FROM metrics m JOIN cells c "
                     "ON c.id = m.cell_id JOIN presets p ON p.id = c.preset_id WHERE c.flag = "
                     "'on' AND m.name IN ('flexibility', 'adaptability', 'new_lines', "
                     "'new_lines_format_string', 'new_lines_polyglot', "
                     "'new_lines_shell_injection', 'new_lines_oversized') ORDER BY c.id, m.name");
    }
};

TEST_F(Coverage, LinesPerCellAndTheHostileCategoriesThatReachedNewOnes) {
    // The default read-only view: the program's folder cannot be written, the workspace can.
    const std::string data = run_matrix("[\"" + compile() + "\", \"{{input.text}}\"]", "readonly");

    // gcov counts 10 lines of main; a plain text runs 6 of them (the opening line, the
    // text, both tests, puts, return). The hostile stub's first 13 inputs (its most potent
    // first: a polyglot starting with "%s", then every category) reach the four lines of the
    // two other branches: the polyglot and the format strings the '%' branch, `$(id)`
    // (shell injection) the '$' branch; the other categories nothing new.
    EXPECT_EQ(cell_coverage(data),
              "normal|adaptability|0.000\nnormal|flexibility|0.600\nnormal|new_lines|0.000\n"
              "hostile_input|adaptability|0.400\nhostile_input|flexibility|1.000\n"
              "hostile_input|new_lines|4.000\nhostile_input|new_lines_format_string|2.000\n"
              "hostile_input|new_lines_oversized|0.000\nhostile_input|new_lines_polyglot|2.000\n"
              "hostile_input|new_lines_shell_injection|2.000\n");
    // Each on-run of normal has its own line coverage; the counterfactual runs `true`,
    // which wrote no gcov data and has none.
    EXPECT_EQ(query(data,
                    "SELECT r.flag, printf('%.3f', m.value) FROM metrics m JOIN runs r ON r.id = "
                    "m.run_id JOIN presets p ON p.id = r.preset_id WHERE p.name = 'normal' AND "
                    "m.name = 'line_coverage' ORDER BY r.id"),
              "on|0.600\non|0.600\n");

    // The data went through the workspace (the read-only view let nothing else be written),
    // never beside the program, and nothing of it is left.
    EXPECT_FALSE(std::filesystem::exists(dir_ + "/branches-branches.gcda"));
    EXPECT_FALSE(std::filesystem::exists(dir_ + "/branches.gcda"));
    EXPECT_TRUE(std::filesystem::is_empty(data + "/state/coverage_capture"));
}

TEST_F(Coverage, DataASigkilledHostKeptIsPurged) {
    // The first step's data is kept when it ends; the host dies in the second, before the
    // run is collected.
    const std::string binary = compile();
    write_settings(R"(
extends: default
injectors: [+coverage_capture]
metrics: [+coverage]
scenarios: [{name: normal}]
workflows:
  - name: slow
    steps:
      - run: [")" + binary +
                   R"(", plain]
      - run: [/bin/sleep, "30"]
)");
    const std::string kept = dir_ + "/data/state/coverage_capture";
    const auto gcda_kept = [&] {
        std::error_code error;
        for (auto entry = std::filesystem::recursive_directory_iterator(kept, error);
             !error && entry != std::filesystem::recursive_directory_iterator();
             entry.increment(error)) {
            if (entry->path().extension() == ".gcda") {
                return true;
            }
        }
        return false;
    };
    const int pid =
        sbx::test::spawn_background({SBX_BINARY, "--config", settings_, "--data-dir",
                                     dir_ + "/data", "run-scenarios", "slow", "--repetitions", "1"},
                                    {}, dir_, dir_ + "/host.log");
    ASSERT_TRUE(sbx::test::wait_until(gcda_kept)) << "the first step's data was never kept";
    ASSERT_EQ(::kill(pid, SIGKILL), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);

    const auto listed = runner({"check-resources"});
    EXPECT_EQ(listed.exit_code, 1) << listed.out << listed.err;
    EXPECT_NE(listed.out.find("coverage data of a finished host: " + kept + "/" +
                              std::to_string(pid) + "-"),
              std::string::npos)
        << listed.out;
    const auto purged = runner({"purge-stale"});
    EXPECT_EQ(purged.exit_code, 0) << purged.err;
    EXPECT_TRUE(std::filesystem::is_empty(kept));
    EXPECT_EQ(runner({"check-resources"}).exit_code, 0) << runner({"check-resources"}).out;
}

TEST_F(Coverage, PythonLinesThroughCoveragePyWithTheTargetsOwnSearchPath) {
    ASSERT_TRUE(std::filesystem::exists("/usr/bin/python3-coverage"))
        << "coverage.py is missing: install python3-coverage (tools/install-deps)";
    const std::string script = write_file("branches.py", kScript);
    // The host's tree: the script lives in a folder the read-only view's private /tmp hides.
    const std::string data =
        run_matrix("[/usr/bin/python3, \"" + script + "\", \"{{input.text}}\"]", "host");

    // coverage.py counts 9 statements; a plain text runs 7 of them, the '%' and '$'
    // branches one each: the polyglot and format strings one, `$(id)` the other.
    EXPECT_EQ(cell_coverage(data),
              "normal|adaptability|0.000\nnormal|flexibility|0.778\nnormal|new_lines|0.000\n"
              "hostile_input|adaptability|0.222\nhostile_input|flexibility|1.000\n"
              "hostile_input|new_lines|2.000\nhostile_input|new_lines_format_string|1.000\n"
              "hostile_input|new_lines_oversized|0.000\nhostile_input|new_lines_polyglot|1.000\n"
              "hostile_input|new_lines_shell_injection|1.000\n");
    // Measured, the target still printed what it prints natively, its search path included:
    // the hook took itself off the path and ran the interpreter's own sitecustomize.
    const auto native = sbx::test::run_command({"/usr/bin/python3", script, "plain"}, {}, dir_);
    ASSERT_EQ(native.exit_code, 0) << native.err;
    EXPECT_EQ(query(data,
                    "SELECT json_extract(s.result, '$.stdout') FROM steps s JOIN runs r ON r.id = "
                    "s.run_id JOIN presets p ON p.id = r.preset_id WHERE p.name = 'normal' AND "
                    "r.flag = 'on' LIMIT 1"),
              native.out + "\n");
    EXPECT_TRUE(std::filesystem::is_empty(data + "/state/coverage_capture"));
}

}  // namespace
