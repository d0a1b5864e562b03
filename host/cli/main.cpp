// sandbox-runner: parses the global options, picks the command, maps failures to exit
// codes (2 bad input, 3 environment). No logic of its own.
#include <unistd.h>

#include <csignal>
#include <iostream>

#include <spdlog/spdlog.h>
#include <boost/program_options.hpp>

#include "cli_context.hpp"
#include "command_table.hpp"
#include "engine/cell_runner.hpp"
#include "plugins/plugin.hpp"
#include "util/errors.hpp"

namespace po = boost::program_options;

namespace {

constexpr const char *kUsageHead =
    "usage: sandbox-runner [global options] COMMAND [command options]\n"
    "\n";

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

}  // namespace

int main(int argc, char **argv) {
    po::options_description global("");
    sbx::cli::GlobalOptions options;
    options.program_path = argc > 0 ? argv[0] : "sandbox-runner";
    global.add_options()("help,h", "show this help")("config", po::value(&options.config_path),
                                                     "settings file (default: the embedded one)")(
        "data-dir", po::value(&options.data_dir), "directory for metrics.db and exports")(
        "plugin-dir", po::value(&options.plugin_dirs)->composing(),
        "extra plugin directory (repeatable)")("log-level", po::value(&options.log_level),
                                               "trace, debug, info, warn, error, critical, off")(
        "json-logs", po::bool_switch(&options.json_logs), "one JSON object per log line");
    po::options_description hidden;
    hidden.add_options()("command", po::value<std::string>())(
        "args", po::value<std::vector<std::string>>());
    po::options_description all;
    all.add(global).add(hidden);
    po::positional_options_description positional;
    positional.add("command", 1).add("args", -1);

    try {
        const auto parsed = po::command_line_parser(argc, argv)
                                .options(all)
                                .positional(positional)
                                // No prefix guessing: `--json` must not become `--json-logs`.
                                .style(po::command_line_style::default_style &
                                       ~po::command_line_style::allow_guessing)
                                .allow_unregistered()
                                .run();
        po::variables_map vm;
        po::store(parsed, vm);
        po::notify(vm);
        if (vm.count("help") || !vm.count("command")) {
            std::cout << kUsageHead << sbx::cli::commands_usage() << "\nglobal options:\n"
                      << global;
            return vm.count("help") ? sbx::kExitOk : sbx::kExitBadInput;
        }
        for (const char *option : {"config", "data-dir", "log-level"}) {
            if (vm.count(option) && vm[option].as<std::string>().empty()) {
                throw sbx::InputError(std::string("--") + option +
                                      " needs a value; leave the option out for the default");
            }
        }
        const std::string command = vm["command"].as<std::string>();
        // Everything after the command name, including its own --options.
        std::vector<std::string> args =
            po::collect_unrecognized(parsed.options, po::include_positional);
        args.erase(args.begin());  // the command itself

        const sbx::cli::Command *found = sbx::cli::find_command(command);
        if (found == nullptr) {
            std::cerr << "sandbox-runner: unknown command '" << command
                      << "'; run `sandbox-runner --help` for the list\n";
            return sbx::kExitBadInput;
        }
        std::signal(SIGINT, on_stop_signal);
        std::signal(SIGTERM, on_stop_signal);
        auto context = sbx::cli::make_context(options);
        return found->run(context, command, args);
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
