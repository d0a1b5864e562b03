// The `coverage` collector end to end: a program compiled here with --coverage, run by the
// real binary under run-scenarios in the default read-only view, with `coverage_capture`
// giving it GCOV_PREFIX; the system's gcov reads what it wrote. Under `normal` it takes one
// branch; the hostile stub's payloads drive it into two more.
#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
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

    // The lines of main gcov counts, and those a native run with `text` reached.
    struct NativeLines {
        std::set<int> counted;
        std::set<int> reached;
    };
    NativeLines native_lines(const std::string &binary, const std::string &text) {
        const std::string prefix = dir_ + "/native";
        std::filesystem::remove_all(prefix);
        const auto ran = sbx::test::run_command(
            {binary, text}, {{"GCOV_PREFIX", prefix}, {"GCOV_PREFIX_STRIP", "0"}}, dir_);
        EXPECT_EQ(ran.exit_code, 0) << ran.err;
        NativeLines lines;
        for (const auto &entry : std::filesystem::recursive_directory_iterator(prefix)) {
            if (entry.path().extension() != ".gcda") {
                continue;
            }
            std::filesystem::path notes = entry.path().lexically_relative(prefix);
            notes = std::filesystem::path("/") / notes.replace_extension(".gcno");
            std::filesystem::path link = entry.path();
            std::filesystem::create_symlink(notes, link.replace_extension(".gcno"));
            const auto report = sbx::test::run_command(
                {"/usr/bin/gcov", "--json-format", "--stdout", entry.path().string()});
            EXPECT_EQ(report.exit_code, 0) << report.err;
            const nlohmann::json parsed = nlohmann::json::parse(report.out);
            for (const auto &file : parsed["files"]) {
                for (const auto &line : file["lines"]) {
                    lines.counted.insert(line["line_number"].get<int>());
                    if (line["count"].get<int64_t>() > 0) {
                        lines.reached.insert(line["line_number"].get<int>());
                    }
                }
            }
        }
        std::filesystem::remove_all(prefix);
        return lines;
    }

    static std::string fixed(double value) {
        char text[32];
        std::snprintf(text, sizeof text, "%.3f", value);
        return text;
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
        std::string data = dir_ + "/measured";
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
    const std::string binary = compile();
    // What gcov itself says of the three branches, run natively: which lines count and
    // which each kind of text reaches (a gcc version may count a line more or less).
    const NativeLines plain = native_lines(binary, "plain");
    const NativeLines percent = native_lines(binary, "%s");
    const NativeLines dollar = native_lines(binary, "$(id)");
    ASSERT_FALSE(plain.counted.empty());
    ASSERT_EQ(percent.counted, plain.counted);
    const auto beyond_plain = [&](const std::set<int> &lines) {
        return std::count_if(lines.begin(), lines.end(),
                             [&](int line) { return plain.reached.count(line) == 0; });
    };
    std::set<int> all = plain.reached;
    all.insert(percent.reached.begin(), percent.reached.end());
    all.insert(dollar.reached.begin(), dollar.reached.end());
    const auto counted = static_cast<double>(plain.counted.size());
    const long fresh = beyond_plain(all);
    ASSERT_GT(beyond_plain(percent.reached), 0);
    ASSERT_GT(beyond_plain(dollar.reached), 0);

    // The default read-only view: the program's folder cannot be written, the workspace can.
    const std::string data = run_matrix("[\"" + binary + "\", \"{{input.text}}\"]", "readonly");

    // Under normal the plain text's lines. The hostile stub's first 13 inputs (its most
    // potent first: a polyglot starting with "%s", then every category) reach both other
    // branches: the polyglot and the format strings the '%' one, `$(id)` (shell injection)
    // the '$' one; the other categories nothing new.
    EXPECT_EQ(cell_coverage(data),
              "normal|adaptability|0.000\nnormal|flexibility|" +
                  fixed(static_cast<double>(plain.reached.size()) / counted) +
                  "\nnormal|new_lines|0.000\n"
                  "hostile_input|adaptability|" +
                  fixed(static_cast<double>(fresh) / static_cast<double>(all.size())) +
                  "\nhostile_input|flexibility|" +
                  fixed(static_cast<double>(all.size()) / counted) + "\nhostile_input|new_lines|" +
                  fixed(static_cast<double>(fresh)) + "\nhostile_input|new_lines_format_string|" +
                  fixed(static_cast<double>(beyond_plain(percent.reached))) +
                  "\nhostile_input|new_lines_oversized|0.000\nhostile_input|new_lines_polyglot|" +
                  fixed(static_cast<double>(beyond_plain(percent.reached))) +
                  "\nhostile_input|new_lines_shell_injection|" +
                  fixed(static_cast<double>(beyond_plain(dollar.reached))) + "\n");
    // Each on-run of normal has its own line coverage; the counterfactual runs `true`,
    // which wrote no gcov data and has none.
    const std::string run_share = fixed(static_cast<double>(plain.reached.size()) / counted);
    EXPECT_EQ(query(data,
                    "SELECT r.flag, printf('%.3f', m.value) FROM metrics m JOIN runs r ON r.id = "
                    "m.run_id JOIN presets p ON p.id = r.preset_id WHERE p.name = 'normal' AND "
                    "m.name = 'line_coverage' ORDER BY r.id"),
              "on|" + run_share + "\non|" + run_share + "\n");
    // Nothing of the data is left.
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
    EXPECT_TRUE(std::filesystem::is_empty(data + "/state/coverage_capture"));

    // Measured, the target printed what it prints unmeasured, its search path included
    // (the hook took itself off the path and ran the interpreter's own sitecustomize), and
    // nothing more on stderr: the same workflow run without the capture.
    const std::string output =
        "SELECT json_extract(s.result, '$.stdout'), json_extract(s.result, '$.stderr') FROM "
        "steps s JOIN runs r ON r.id = s.run_id JOIN presets p ON p.id = r.preset_id WHERE "
        "p.name = 'normal' AND r.flag = 'on' LIMIT 1";
    write_settings(R"(
scenarios: [{name: normal}]
workflows:
  - name: branches
    filesystem: host
    steps:
      - run: [/usr/bin/python3, ")" +
                   script + R"(", plain]
)");
    const auto unmeasured = runner({"run-scenarios", "branches", "--repetitions", "1"});
    ASSERT_EQ(unmeasured.exit_code, 0) << unmeasured.err;
    EXPECT_EQ(query(data, output), query(dir_ + "/data", output));
    EXPECT_NE(query(data, output).find("plain\n["), std::string::npos);
}

}  // namespace
