// sandbox-runner: parses the global options, picks the command, maps failures to exit
// codes (2 bad input, 3 environment). No logic of its own.
#include <unistd.h>

#include <csignal>
#include <iostream>
#include <optional>

#include <spdlog/spdlog.h>
#include <boost/program_options.hpp>

#include "cli_context.hpp"
#include "command_table.hpp"
#include "engine/cancelled.hpp"
#include "global_options.hpp"
#include "help_text.hpp"
#include "live_servers.hpp"
#include "plugins/plugin.hpp"
#include "util/errors.hpp"

namespace po = boost::program_options;

namespace {

// Rationale: the first SIGINT/SIGTERM asks for an orderly stop (runs in flight are
// stopped, isolated plugins killed after their grace, guests powered off, the session marked
// interrupted). An in-process plugin call that never returns cannot be stopped that way: a
// second signal ends the process at once with exit 3 (the next command marks the session
// crashed, and `purge-stale` removes what it left). No timer does it for the user: an
// orderly stop may take long (a guest's power-off under load), and cutting it short leaks.
[[noreturn]] void hard_stop(int) {
    static const char message[] =
        "sandbox-runner: stopped hard on a second signal, without waiting for what was in "
        "flight; the next command marks the session crashed (run `sandbox-runner "
        "purge-stale` to clean up)\n";
    (void)!::write(STDERR_FILENO, message, sizeof(message) - 1);
    ::_exit(sbx::kExitEnvironment);
}

void on_stop_signal(int signal_number) {
    if (sbx::plugins::cancel_requested()) {
        hard_stop(signal_number);
    }
    sbx::plugins::request_cancel();
    static const char message[] =
        "sandbox-runner: stopping; a second Ctrl-C (or SIGTERM) stops at once\n";
    (void)!::write(STDERR_FILENO, message, sizeof(message) - 1);
}

// The global option `word` spells, or nullptr. Long names are looked up without their
// "--" (and "=value"), short ones whole; after the command, --help and --version are the
// command's own (`run --help` is run's help).
const po::option_description *global_spelling(const po::options_description &global,
                                              const std::string &word, bool after_command) {
    const std::string key =
        word.rfind("--", 0) == 0 ? word.substr(2, word.find('=') - 2) : word.substr(0, 2);
    const auto *option = word.size() > 1 && word[0] == '-' && word != "--"
                             ? global.find_nothrow(key, false)
                             : nullptr;
    if (option != nullptr && after_command &&
        (option->long_name() == "help" || option->long_name() == "version")) {
        option = nullptr;
    }
    return option;
}

struct CommandLine {
    std::vector<std::string> global_words;  // the global options and their values
    bool has_command = false;
    std::string command;
    std::vector<std::string> args;  // the command's own words
};

// The global options end at the first word that is not one of them: the command. After
// it, the settings options (--config, --data-dir, --plugin-dir, --log-level, --json-logs,
// --quiet) are still taken as global ones, anywhere before a `--`.
CommandLine split_command_line(int argc, char **argv, const po::options_description &global) {
    CommandLine line;
    int at = 1;
    for (; at < argc && argv[at][0] == '-'; ++at) {
        const std::string word = argv[at];
        const auto *option = global_spelling(global, word, false);
        line.global_words.push_back(word);
        if (option != nullptr && word.find('=') == std::string::npos &&
            option->semantic()->max_tokens() > 0 && at + 1 < argc) {
            line.global_words.emplace_back(argv[++at]);
        }
    }
    line.has_command = at < argc;
    line.command = line.has_command ? argv[at] : "";
    bool literal = false;  // after `--`: the command's words, whatever they spell
    for (int i = at + 1; i < argc; ++i) {
        const std::string word = argv[i];
        literal = literal || word == "--";
        const auto *option = literal ? nullptr : global_spelling(global, word, true);
        if (option == nullptr) {
            line.args.push_back(word);
            continue;
        }
        line.global_words.push_back(word);
        if (word.find('=') == std::string::npos && option->semantic()->max_tokens() > 0 &&
            i + 1 < argc) {
            line.global_words.emplace_back(argv[++i]);
        }
    }
    return line;
}

// Global options given without a value they need: exit 2 before any command runs.
void refuse_empty_values(const po::variables_map &vm, const sbx::cli::GlobalOptions &options) {
    for (const char *option : {"config", "data-dir", "log-level"}) {
        if (vm.count(option) && vm[option].as<std::string>().empty()) {
            throw sbx::InputError(std::string("--") + option +
                                  " needs a value; leave the option out for the default");
        }
    }
    for (const auto &dir : options.plugin_dirs) {
        if (dir.empty()) {
            throw sbx::InputError("--plugin-dir needs a directory");
        }
    }
}

// Runs `command` with its words: its help when they ask for it, else the command, with the
// signal handlers installed and, for a long command, the dashboard and the exporter.
int dispatch(sbx::cli::GlobalOptions options, const std::string &command,
             std::vector<std::string> args) {
    const sbx::cli::Command *found = sbx::cli::find_command(command);
    if (found == nullptr) {
        std::cerr << "sandbox-runner: unknown command '" << command
                  << "'; run `sandbox-runner --help` for the list\n";
        return sbx::kExitBadInput;
    }
    // `COMMAND --help` is that command's help, whatever else the line holds.
    for (const auto &arg : args) {
        if (arg == "--help" || arg == "-h") {
            std::cout << sbx::cli::command_help(*found);
            return sbx::kExitOk;
        }
    }
    for (const auto &arg : args) {
        options.json_output = options.json_output || arg == "--json";
    }
    std::signal(SIGINT, on_stop_signal);
    std::signal(SIGTERM, on_stop_signal);
    if (!found->needs_settings) {
        sbx::cli::CliContext bare;
        bare.options = options;
        return found->run(bare, command, args);
    }
    auto context = sbx::cli::make_context(options);
    // The dashboard and the exporter of a long command, up before its first run.
    std::optional<sbx::cli::LiveServers> servers;
    if (sbx::cli::runs_long(found->name)) {
        servers.emplace(args, context.settings.data_dir);
    }
    return found->run(context, command, args);
}

}  // namespace

int main(int argc, char **argv) {
    sbx::cli::GlobalOptions options;
    options.program_path = argc > 0 ? argv[0] : "sandbox-runner";
    const po::options_description global = sbx::cli::global_options(options);
    try {
        const CommandLine line = split_command_line(argc, argv, global);
        po::variables_map vm;
        po::store(po::command_line_parser(line.global_words)
                      .options(global)
                      // No prefix guessing: `--json` must not become `--json-logs`.
                      .style(po::command_line_style::default_style &
                             ~po::command_line_style::allow_guessing)
                      .run(),
                  vm);
        po::notify(vm);
        if (vm.count("version")) {
            std::cout << sbx::cli::version_text();
            return sbx::kExitOk;
        }
        if (vm.count("help") || !line.has_command) {
            (vm.count("help") ? std::cout : std::cerr) << sbx::cli::general_help();
            return vm.count("help") ? sbx::kExitOk : sbx::kExitBadInput;
        }
        refuse_empty_values(vm, options);
        return dispatch(options, line.command, line.args);
    } catch (const po::error &e) {
        std::cerr << "sandbox-runner: " << e.what() << "; run `sandbox-runner --help`\n";
        return sbx::kExitBadInput;
    } catch (const sbx::InputError &e) {
        std::cerr << "sandbox-runner: " << e.what() << '\n';
        return sbx::kExitBadInput;
    } catch (const sbx::engine::Cancelled &e) {
        std::cerr << "sandbox-runner: " << e.what() << '\n';
        return sbx::kExitEnvironment;
    } catch (const std::exception &e) {
        std::cerr << "sandbox-runner: error: " << e.what() << '\n';
        return sbx::kExitEnvironment;
    } catch (...) {  // not a std::exception: still an orderly exit, never std::terminate
        std::cerr << "sandbox-runner: error: an unknown exception ended the command\n";
        return sbx::kExitEnvironment;
    }
}
