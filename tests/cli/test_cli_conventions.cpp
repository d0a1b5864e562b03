// The CLI's conventions: --version, help for every command (`help NAME` and `NAME --help`
// the same text), a man page and shell completions generated from the same table, old command
// names kept as aliases, and read-only commands that create nothing where they run.
#include <sbx/plugin.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cli_fixture.hpp"

namespace {

namespace fs = std::filesystem;
using sbx::test::CommandResult;
using sbx::test::run_command;

class Conventions : public sbx::test::CliTest {
  protected:
    // The binary alone, with no settings chosen by the fixture.
    static CommandResult bare(const std::vector<std::string> &args,
                              const std::map<std::string, std::string> &env = {},
                              const std::string &cwd = "") {
        std::vector<std::string> argv{SBX_BINARY};
        argv.insert(argv.end(), args.begin(), args.end());
        return run_command(argv, env, cwd);
    }

    // The command names `--help` lists ("  name ..." lines before "global options").
    static std::vector<std::string> listed_commands() {
        const auto help = bare({"--help"});
        EXPECT_EQ(help.exit_code, 0) << help.err;
        std::vector<std::string> names;
        static const std::regex kLine(R"(^  ([a-z][a-z-]+)[ \n(])");
        std::istringstream lines(help.out);
        for (std::string line; std::getline(lines, line) && line != "global options:";) {
            std::smatch match;
            line += "\n";
            if (std::regex_search(line, match, kLine)) {
                names.push_back(match[1]);
            }
        }
        return names;
    }

    std::string write_script(const std::string &name, const std::string &text) {
        return write_file(name, text);
    }
};

TEST_F(Conventions, VersionNamesTheReleaseTheAbiAndTheBuild) {
    const auto result = bare({"--version"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("sandbox-runner " SBX_PROJECT_VERSION "\n"), std::string::npos)
        << result.out;
    EXPECT_NE(result.out.find("plugin ABI " + std::to_string(SBX_ABI_MAJOR) + "." +
                              std::to_string(SBX_ABI_MINOR) + " (" SBX_EXECUTOR_V1),
              std::string::npos)
        << result.out;
    EXPECT_TRUE(std::regex_search(result.out, std::regex("\nbuild: .+, commit [0-9a-z-]+\n")))
        << result.out;
}

TEST_F(Conventions, EveryCommandHasItsOwnHelpEitherWay) {
    const auto names = listed_commands();
    ASSERT_GE(names.size(), 20U);
    for (const auto &name : names) {
        const auto help = bare({"help", name});
        ASSERT_EQ(help.exit_code, 0) << name << ": " << help.err;
        EXPECT_EQ(help.out.rfind("usage: sandbox-runner [global options] " + name + "\n", 0), 0U)
            << help.out;
        // A sentence of its own, not the general help.
        EXPECT_EQ(help.out.find("commands:"), std::string::npos) << help.out;
        const auto flag = bare({name, "--help"});
        EXPECT_EQ(flag.exit_code, 0) << name;
        EXPECT_EQ(flag.out, help.out) << name;
    }
    const auto run_scenarios = bare({"run-scenarios", "--json", "-h"});
    EXPECT_NE(run_scenarios.out.find("--fail-on"), std::string::npos);
    EXPECT_NE(run_scenarios.out.find("verdict"), std::string::npos);
    EXPECT_EQ(bare({"help"}).out, bare({"--help"}).out);
}

TEST_F(Conventions, HelpNeedsNoSettingsAndNamesWhatIsWrong) {
    const std::map<std::string, std::string> broken{{"SANDBOX_SETTINGS_YAML", dir_ + "/none.yaml"}};
    EXPECT_EQ(bare({"help", "replay"}, broken).exit_code, 0);
    EXPECT_EQ(bare({"print-completions", "bash"}, broken).exit_code, 0);
    EXPECT_EQ(bare({"show-cleanup-stats"}, broken).exit_code, 2);  // a command that reads them
    const auto unknown = bare({"help", "rnu"});
    EXPECT_EQ(unknown.exit_code, 2);
    EXPECT_NE(unknown.err.find("help: unknown command 'rnu'"), std::string::npos) << unknown.err;
    const auto shell = bare({"print-completions", "fish"});
    EXPECT_EQ(shell.exit_code, 2);
    EXPECT_NE(shell.err.find("bash or zsh"), std::string::npos) << shell.err;
    const auto nothing = bare({});
    EXPECT_EQ(nothing.exit_code, 2);
    EXPECT_NE(nothing.err.find("commands:"), std::string::npos);  // on stderr: an error
}

TEST_F(Conventions, TheManPageListsEveryCommandAndRendersWithoutWarnings) {
    const auto page = bare({"help", "--man"});
    ASSERT_EQ(page.exit_code, 0) << page.err;
    const std::string file = write_file("sandbox-runner.1", page.out);
    for (const auto &name : listed_commands()) {
        std::string escaped = std::regex_replace(name, std::regex("-"), "\\-");
        EXPECT_NE(page.out.find(".TP\n.B " + escaped + "\n"), std::string::npos) << name;
    }
    EXPECT_NE(page.out.find("\\-\\-version"), std::string::npos);
    // groff's own checks: -ww warns of every problem it sees.
    const auto lint = run_command({"/usr/bin/groff", "-ww", "-z", "-man", file});
    ASSERT_EQ(lint.exit_code, 0) << "groff (Debian groff-base) is needed: " << lint.err;
    EXPECT_EQ(lint.err, "");
    const auto rendered = run_command({"/usr/bin/man", "-l", file}, {{"MANWIDTH", "100"}});
    ASSERT_EQ(rendered.exit_code, 0) << "man (Debian man-db): " << rendered.err;
    EXPECT_NE(rendered.out.find("run-scenarios"), std::string::npos);
    EXPECT_NE(rendered.out.find("EXIT STATUS"), std::string::npos);
}

TEST_F(Conventions, BashCompletesCommandsOptionsWordsAndValues) {
    const auto script = bare({"print-completions", "bash"});
    ASSERT_EQ(script.exit_code, 0);
    const std::string file = write_file("completion.bash", script.out);
    // Each line: the words typed so far; the last one is being completed.
    const auto complete = [&](const std::string &words) {
        const auto result =
            run_command({"/bin/bash", "-c",
                         "source '" + file + "'; COMP_WORDS=(" + words +
                             "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _sandbox_runner; "
                             "printf '%s\\n' \"${COMPREPLY[@]}\" | sort"});
        EXPECT_EQ(result.exit_code, 0) << result.err;
        return result.out;
    };
    EXPECT_EQ(complete("sandbox-runner run-sc"), "run-scenarios\n");
    EXPECT_EQ(complete("sandbox-runner --data-dir d run-scenarios --repe"), "--repetitions\n");
    EXPECT_EQ(complete("sandbox-runner plugins ''"),
              "--call\n--help\n--json\n--plugin-config\n--request\n-"
              "h\ncall\ninspect\nlist\nnew\nverify\n");
    EXPECT_EQ(complete("sandbox-runner --log-level d"), "debug\n");
    EXPECT_EQ(complete("sandbox-runner --vers"), "--version\n");
    // An old name (an alias) completes, and so do the new name's options after it.
    EXPECT_EQ(complete("sandbox-runner synergy-metr"), "synergy-metrics\n");
    EXPECT_EQ(complete("sandbox-runner synergy-metrics --pl"), "--plot\n");
    EXPECT_EQ(complete("sandbox-runner show-synergy --pl"), "--plot\n");
    // Quoted as typed: the folder may hold a space (a checkout under "/tmp/a b").
    EXPECT_EQ(complete("sandbox-runner run --preset-file '" + dir_ + "/completion.ba'"),
              dir_ + "/completion.bash\n");
}

TEST_F(Conventions, ZshCompletesCommandsAndOptions) {
    const auto script = bare({"print-completions", "zsh"});
    ASSERT_EQ(script.exit_code, 0);
    ASSERT_EQ(script.out.rfind("#compdef sandbox-runner\n", 0), 0U);
    const std::string file = write_file("_sandbox-runner", script.out);
    // zsh's completion functions replaced by ones that print what they were given.
    const auto complete = [&](const std::string &words) {
        const auto result =
            run_command({"/usr/bin/zsh", "-f", "-c",
                         "compadd() { [[ $1 == -- ]] && shift; print -rl -- \"$@\"; }; "
                         "_describe() { print -rl -- ${(P)4%%:*}; }; _files() { print files; }; "
                         "words=(" +
                             words + "); CURRENT=${#words}; source '" + file + "' | sort"});
        EXPECT_EQ(result.exit_code, 0) << "zsh (Debian zsh) is needed: " << result.err;
        return result.out;
    };
    const std::string first = complete("sandbox-runner ''");
    for (const char *word : {"run-scenarios\n", "find-boundaries\n", "--version\n", "-q\n"}) {
        EXPECT_NE(first.find(word), std::string::npos) << word << " in\n" << first;
    }
    EXPECT_NE(complete("sandbox-runner --config c.yaml run-scenarios ''").find("--fail-on\n"),
              std::string::npos);
    EXPECT_EQ(complete("sandbox-runner run --preset-file ''"), "files\n");
    EXPECT_EQ(complete("sandbox-runner --log-level ''"),
              "critical\ndebug\nerror\ninfo\noff\ntrace\nwarn\n");
}

// Each command is a verb or verb-object (groups: a plural noun and a verb); the names from
// before 0.1.0 stay as aliases. An alias is the same command: the same help, the same
// output, the same errors (which name the command by its new name), listed in `--help`.
TEST_F(Conventions, OldNamesAreAliasesThatBehaveAsTheNewNames) {
    const std::vector<std::pair<std::string, std::string>> renamed = {
        {"full-autonomous-run", "run-autonomous"}, {"cleanup-stats", "show-cleanup-stats"},
        {"synergy-metrics", "show-synergy"},       {"reliability", "show-reliability"},
        {"dashboard", "serve-dashboard"},          {"worker", "run-shard"},
        {"completions", "print-completions"},      {"cleanup", "purge-stale"}};
    const auto general = bare({"--help"});
    const auto names = listed_commands();
    const auto man = bare({"help", "--man"});
    for (const auto &[old_name, name] : renamed) {
        const std::string listed =
            std::string("\n  ").append(name).append(" (alias ").append(old_name).append(") ");
        EXPECT_NE(general.out.find(listed), std::string::npos) << listed << "\n" << general.out;
        EXPECT_EQ(std::count(names.begin(), names.end(), old_name), 0) << old_name;
        const auto help = bare({name, "--help"});
        ASSERT_EQ(help.exit_code, 0) << name << ": " << help.err;
        EXPECT_NE(help.out.find("\nalias: " + old_name + "\n"), std::string::npos) << help.out;
        const auto aliased = bare({old_name, "--help"});
        EXPECT_EQ(aliased.exit_code, 0) << old_name << ": " << aliased.err;
        EXPECT_EQ(aliased.out, help.out) << old_name;
        EXPECT_EQ(bare({"help", old_name}).out, help.out) << old_name;
        EXPECT_NE(man.out.find("Alias: " + std::regex_replace(old_name, std::regex("-"), "\\-")),
                  std::string::npos)
            << old_name;
    }

    // Real runs: each old name gives what the new one gives, its errors included.
    const std::string empty = dir_ + "/empty";
    fs::create_directories(empty);
    for (const auto &[old_name, name, args] :
         std::vector<std::tuple<std::string, std::string, std::vector<std::string>>>{
             {"cleanup-stats", "show-cleanup-stats", {}},
             {"cleanup-stats", "show-cleanup-stats", {"--json"}},
             {"completions", "print-completions", {"bash"}},
             {"completions", "print-completions", {"zsh"}},
             {"completions", "print-completions", {"fish"}},
             {"synergy-metrics", "show-synergy", {"--json"}},
             {"reliability", "show-reliability", {"--window", "-1"}},
             {"dashboard", "serve-dashboard", {"--port", "70000"}},
             {"worker", "run-shard", {"--job", empty + "/job", "--shard", "0/1"}},
             {"full-autonomous-run", "run-autonomous", {"--max-iterations", "0"}}}) {
        std::vector<std::string> typed{old_name};
        typed.insert(typed.end(), args.begin(), args.end());
        std::vector<std::string> renamed_line{name};
        renamed_line.insert(renamed_line.end(), args.begin(), args.end());
        const auto by_old = bare(typed, {}, empty);
        const auto by_new = bare(renamed_line, {}, empty);
        EXPECT_EQ(by_old.exit_code, by_new.exit_code) << old_name << ": " << by_old.err;
        EXPECT_EQ(by_old.out, by_new.out) << old_name;
        EXPECT_EQ(by_old.err, by_new.err) << old_name;
        // An error names the command by its new name, whichever name was typed.
        if (by_old.exit_code == 2) {
            EXPECT_NE(by_old.err.find("sandbox-runner: " + name), std::string::npos) << by_old.err;
            EXPECT_EQ(by_old.err.find("sandbox-runner: " + old_name), std::string::npos)
                << by_old.err;
        }
    }
    EXPECT_EQ(bare({"show-cleanup-stats"}, {}, empty).exit_code, 0);
    EXPECT_EQ(bare({"print-completions", "bash"}, {}, empty).exit_code, 0);
}

TEST_F(Conventions, ReadOnlyCommandsCreateNothingWhereTheyRun) {
    const std::string empty = dir_ + "/empty";
    fs::create_directories(empty);
    // The default settings and data dir (./sandbox_data): what a user gets anywhere.
    for (const auto &args :
         std::vector<std::vector<std::string>>{{"check-resources"},
                                               {"check-resources", "--json"},
                                               {"show-cleanup-stats"},
                                               {"show-reliability"},
                                               {"plugins", "list"},
                                               {"workflows", "list"},
                                               {"presets", "generate", "--count", "2"},
                                               {"rank-scenarios", "sandbox_data"},
                                               {"replay", "1"},
                                               {"install-autopurge", "--print"},
                                               {"help", "--man"},
                                               {"--version"}}) {
        const auto result = bare(args, {}, empty);
        EXPECT_LE(result.exit_code, 2) << args[0] << ": " << result.err;
        std::vector<std::string> created;
        for (const auto &entry : fs::recursive_directory_iterator(empty)) {
            created.push_back(entry.path().string());
        }
        EXPECT_TRUE(created.empty()) << args[0] << " created " << created.front();
        fs::remove_all(empty);
        fs::create_directories(empty);
    }
}

}  // namespace
