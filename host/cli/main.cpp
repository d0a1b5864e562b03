// sandbox-runner: parses the global options, picks the command, maps failures to exit
// codes (2 bad input, 3 environment). No logic of its own.
#include <csignal>
#include <iostream>

#include <spdlog/spdlog.h>
#include <boost/program_options.hpp>

#include "cli_context.hpp"
#include "engine/cell_runner.hpp"
#include "plugins/plugin.hpp"
#include "util/errors.hpp"

namespace po = boost::program_options;

namespace {

constexpr const char *kUsage =
    "usage: sandbox-runner [global options] COMMAND [command options]\n"
    "\n"
    "commands:\n"
    "  run [--workflow|-w NAME | --all-workflows | --sections] [--runs N] [--seed S]\n"
    "      [--preset-file F]... [--preset-count N] [--workers N] [--details] [--json]\n"
    "      [--keep-workspaces] [--fail-under ROI]\n"
    "  run-scenarios [WORKFLOW] [--all-scenarios] [--repetitions N] [--seed S]\n"
    "      [--workers N] [--json] [--recover] [--keep-workspaces] [--shrink-runs N]\n"
    "      [--fail-on worst-below=X|status=fail|status=weak]...\n"
    "  simulate-temporal-trajectory [WORKFLOW] [--repetitions N] [--seed S] [--workers N]\n"
    "      [--json] [--keep-workspaces]\n"
    "  workflows list [--json] | workflows import FILE\n"
    "  replay RUN_ID [--print] [--json]      (exit 1 when the outcome differs)\n"
    "  shrink RUN_ID [--max-runs N] [--json]      (the smallest input and fault keys that\n"
    "      still fail the same way; exit 1 when the run does not fail again)\n"
    "  purge-stale [--json] (alias cleanup) | check-resources [--json] (exit 1 when any)\n"
    "  cleanup-stats [--json]      (the cleanup counters plugins reported, from metrics.db)\n"
    "  install-autopurge [--system] [--unit-dir DIR] [--print]   (purge-stale hourly)\n"
    "  rank-scenarios RUN... [--json]      (RUN: a data dir, roi_history.json or metrics.db)\n"
    "  rank-synergy RUN... [--metric M] [--json]      (synergy_M of sections and workflows)\n"
    "  rank-scenario-synergy RUN... [--metric M] [--json]      (workflows only; the same as\n"
    "      rank-synergy for a roi_history.json, which does not record the subject)\n"
    "  plugins list [--json] | plugins inspect ID | plugins verify PATH\n"
    "  presets generate [--profiles P...] [--count N] [--severity low|high] [--seed S]\n"
    "      [--out FILE] [--canonical]\n"
    "\n"
    "global options:\n";

void on_stop_signal(int) {
    sbx::plugins::request_cancel();
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
            std::cout << kUsage << global;
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

        std::signal(SIGINT, on_stop_signal);
        std::signal(SIGTERM, on_stop_signal);
        auto context = sbx::cli::make_context(options);
        if (command == "plugins") {
            return sbx::cli::run_plugins_command(context, args);
        }
        if (command == "run") {
            return sbx::cli::run_run_command(context, args);
        }
        if (command == "presets") {
            return sbx::cli::run_presets_command(context, args);
        }
        if (command == "run-scenarios") {
            return sbx::cli::run_run_scenarios_command(context, args);
        }
        if (command == "rank-scenarios" || command == "rank-synergy" ||
            command == "rank-scenario-synergy") {
            return sbx::cli::run_rank_command(context, command, args);
        }
        if (command == "purge-stale" || command == "cleanup" || command == "check-resources") {
            return sbx::cli::run_cleanup_command(context, command, args);
        }
        if (command == "cleanup-stats") {
            return sbx::cli::run_cleanup_stats_command(context, args);
        }
        if (command == "workflows") {
            return sbx::cli::run_workflows_command(context, args);
        }
        if (command == "install-autopurge") {
            return sbx::cli::run_autopurge_command(context, args);
        }
        if (command == "replay") {
            return sbx::cli::run_replay_command(context, args);
        }
        if (command == "shrink") {
            return sbx::cli::run_shrink_command(context, args);
        }
        if (command == "simulate-temporal-trajectory") {
            return sbx::cli::run_trajectory_command(context, args);
        }
        std::cerr << "sandbox-runner: unknown command '" << command
                  << "'; run `sandbox-runner --help` for the list\n";
        return sbx::kExitBadInput;
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
