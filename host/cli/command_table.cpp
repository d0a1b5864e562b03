#include "command_table.hpp"

#include <cstring>

namespace sbx::cli {
namespace {

// Adapts a handler that serves one command to the table's signature.
template <int (*Handler)(CliContext &, const std::vector<std::string> &)>
int one(CliContext &context, const std::string & /*name*/, const std::vector<std::string> &args) {
    return Handler(context, args);
}

// Adapts a handler that serves several commands: it is given the command's name, never an
// alias, so an old name behaves as the new one does, in its decisions and in its messages.
template <int (*Handler)(CliContext &, const std::string &, const std::vector<std::string> &)>
int named(CliContext &context, const std::string &name, const std::vector<std::string> &args) {
    const Command *command = find_command(name);
    return Handler(context, command != nullptr ? command->name : name, args);
}

// Commands that run a workflow under presets and score it.
std::vector<Command> run_commands() {
    return {
        {"run", nullptr,
         "[--workflow|-w NAME | --all-workflows | --sections] [--runs N] [--seed S]\n"
         "[--preset-file F]... [--preset-count N] [--workers N] [--details] [--json]\n"
         "[--keep-workspaces] [--fail-under ROI] [--recover] [--on local|slurm]\n"
         "[--dashboard-port P] [--metrics-port P]",
         "Runs workflows under presets: each preset once with the workflow on and once off (the "
         "counterfactual), scores every cell and records it in metrics.db.",
         "", one<run_run_command>},
        {"run-scenarios", nullptr,
         "[WORKFLOW] [--all-scenarios] [--repetitions N] [--seed S]\n"
         "[--workers N] [--json] [--recover] [--keep-workspaces] [--shrink-runs N]\n"
         "[--fail-on worst-below=X|status=fail|status=weak]...\n"
         "[--report junit|markdown|html|json:FILE]... [--dashboard-port P] [--metrics-port P]\n"
         "[--on local|slurm]",
         "Runs one workflow across the scenario matrix (normal, high latency, hostile input, ...), "
         "on and off, and reports each scenario's ROI delta, the worst scenario and the verdict; "
         "exit 1 when a --fail-on gate trips.",
         "", one<run_run_scenarios_command>},
        {"simulate-temporal-trajectory", nullptr,
         "[WORKFLOW] [--repetitions N] [--seed S] [--workers N]\n[--json] [--keep-workspaces] "
         "[--recover] [--plot FILE.svg] [--on local|slurm]\n"
         "[--dashboard-port P] [--metrics-port P]",
         "Runs the workflow through the stages of the temporal trajectory (normal, then ever "
         "harsher presets) and reports degradation, resilience and stability per stage.",
         "", one<run_trajectory_command>},
        {"run-autonomous", "full-autonomous-run",
         "[-w NAME]... [--max-iterations N] [--max-minutes M]\n"
         "[--preset-count N] [--preset-file F]... [--runs N] [--seed S] [--workers N]\n"
         "[--roi-cycles N] [--synergy-cycles N] [--roi-threshold X] [--synergy-threshold X]\n"
         "[--entropy-threshold X] [--forecast-log FILE] [--recover] [--json]\n"
         "[--dashboard-port P] [--metrics-port P]\n"
         "(iterate until every module and the synergy converge)",
         "Iterates: generates presets, runs every workflow alone and all together, forecasts ROI, "
         "entropy and synergy, and stops once every module and the synergy converge.",
         "", named<run_autonomous_command>},
        {"run-complete", nullptr,
         "PRESET_FILE... [--max-iterations N (default 1)] [run-autonomous options]\n"
         "[--dashboard-port P] [--metrics-port P]",
         "run-autonomous on the given preset files, one iteration by default.", "",
         named<run_autonomous_command>},
        {"adapt-presets", nullptr,
         "[PRESET_FILE...] [--preset-count N] [--seed S] [--strategy q_learning|rules]\n"
         "[--history ROI_HISTORY] [--out FILE] [--json]\n"
         "(each preset stepped milder or harsher from its scenario's history)",
         "Adapts presets to the tracker's ROI, synergy and security trends, by the learned "
         "policy or the rules, and writes them as a preset file.",
         "", one<run_adapt_presets_command>},
        {"find-boundaries", nullptr,
         "[WORKFLOW] [--axis KEY[:MILD:HARSH[:PRECISION]]]... [--runs N] [--seed S]\n"
         "[--workers N] [--break-below ROI] [--strategy bisect|grid] [--preset-debug] [--json]\n"
         "[--dashboard-port P] [--metrics-port P]\n"
         "(the mildest setting of each axis that breaks the workflow)",
         "Searches each preset axis for the mildest setting that breaks the workflow (its failure "
         "boundary).",
         "", one<run_find_boundaries_command>},
    };
}

// Commands on workflows and recorded runs: list, replay, shrink, explore.
std::vector<Command> recorded_run_commands() {
    return {
        {"workflows", nullptr, "list [--json] | workflows import FILE",
         "Lists the workflows of the settings and of metrics.db, or imports a workflow file into "
         "metrics.db.",
         "list import", one<run_workflows_command>},
        {"replay", nullptr, "RUN_ID [--print] [--json]      (exit 1 when the outcome differs)",
         "Runs a recorded run again with the same inputs, preset and seed, and compares the "
         "outcome; --print gives a shell script that reproduces it.",
         "", one<run_replay_command>},
        {"shrink", nullptr,
         "RUN_ID [--max-runs N] [--json]      (the smallest input and fault keys that\n"
         "still fail the same way; exit 1 when the run does not fail again)",
         "Shrinks a failed run to the smallest inputs and fault keys that still fail the same way.",
         "", one<run_shrink_command>},
        {"explore", nullptr,
         "WORKFLOW [--slot S] [--runs N] [--seed N] [--preset NAME] [--corpus DIR]\n"
         "[--shrink-runs N] [--json]      (coverage-guided where the target gives coverage)",
         "Spends a budget of runs on one workflow's input, keeping inputs that reach new lines "
         "and trying their edits first; reports each distinct failure, shrunk, with its replay "
         "line.",
         "", one<run_explore_command>},
    };
}

// Commands that find and remove what crashed runs left behind.
std::vector<Command> cleanup_commands() {
    return {
        {"purge-stale", "cleanup", "[--json]      (what crashed runs left behind)",
         "Removes what crashed hosts left behind: processes, namespaces, cgroups, mounts, firewall "
         "rules, containers, guests and temporary folders.",
         "", named<run_cleanup_command>},
        {"check-resources", nullptr,
         "[--json]      (lists what purge-stale would remove; exit 1 "
         "when any)",
         "Lists what purge-stale would remove, without removing anything; exit 1 when something is "
         "left.",
         "", named<run_cleanup_command>},
        {"show-cleanup-stats", "cleanup-stats",
         "[--json]      (the cleanup counters plugins reported,\n"
         "from metrics.db)",
         "Prints the cleanup counters the executors and injectors reported.", "",
         one<run_cleanup_stats_command>},
        {"install-autopurge", nullptr,
         "[--system] [--unit-dir DIR] [--print]   (purge-stale hourly)",
         "Installs a systemd timer (user or --system) that runs purge-stale every hour.", "",
         one<run_autopurge_command>},
    };
}

// Commands that read the history: rankings and predictor reliability.
std::vector<Command> history_commands() {
    return {
        {"rank-scenarios", nullptr,
         "RUN... [--all-workflows] [--plot FILE.svg] [--json]      (RUN: a data dir,\n"
         "roi_history.json or metrics.db; a ranking per workflow unless --all-workflows;\n"
         "--plot draws each scenario's ROI history)",
         "Ranks the scenarios of each workflow (or of all, with --all-workflows) by their "
         "cumulative ROI over several runs.",
         "", named<run_rank_command>},
        {"rank-synergy", nullptr,
         "RUN... [--metric M] [--json]      (synergy_M of sections and "
         "workflows)",
         "Ranks scenarios by the cumulative synergy of a metric.", "", named<run_rank_command>},
        {"rank-scenario-synergy", nullptr,
         "RUN... [--metric M] [--json]      (workflows only; the same as\n"
         "rank-synergy for a roi_history.json, which does not record the subject)",
         "Ranks scenarios by the synergy of a metric recorded per workflow.", "",
         named<run_rank_command>},
        {"show-reliability", "reliability",
         "[--metric M|all] [--window N] [--json]\n"
         "(each predictor's error and interval coverage per recorded series; M defaults to roi)",
         "How good each predictor's forecasts were: error, interval coverage and reliability per "
         "recorded series.",
         "", one<run_reliability_command>},
    };
}

// Commands on plugins and presets, and the history's reports and dashboard.
std::vector<Command> extension_and_report_commands() {
    return {
        {"plugins", nullptr,
         "list [--json] | plugins inspect ID | plugins verify PATH\n"
         "| plugins call PATH --request FILE [--call NAME] [--plugin-config JSON]\n"
         "| plugins new KIND NAME [DIR]",
         "Lists, inspects, verifies and calls plugins, and scaffolds a new one.",
         "list inspect verify call new", one<run_plugins_command>},
        {"presets", nullptr,
         "generate [--profiles P[+P]...] [--count N] [--severity low|high] [--seed S]\n"
         "[--out FILE] [--canonical]",
         "Generates scenario presets from profiles.", "generate", one<run_presets_command>},
        {"show-synergy", "synergy-metrics", "[--window N] [--plot FILE.svg] [--json]",
         "Prints the most recent value of each synergy metric with its exponential moving "
         "average over the last N values (default 5); --plot draws them as a bar chart.",
         "", one<run_synergy_metrics_command>},
        {"report", nullptr, "[SESSION] [--format junit|markdown|html|json] [--out FILE]",
         "Writes the report of a recorded session (default: the latest one with scenario "
         "scores): JUnit XML for CI systems (one test case per scenario), Markdown for a pull "
         "request comment or a step summary, a self-contained HTML page with the plots, or "
         "JSON.",
         "", one<run_report_command>},
        {"serve-dashboard", "dashboard", "[--port P] [--bind ADDR]",
         "Serves the dashboard: sessions, the scenario matrix with deltas and the worst "
         "scenario, ROI and metric trends with forecasts, synergy, failures and cleanup "
         "counters, updated live; the JSON API (/roi, /metrics/NAME, ...) and the Prometheus "
         "exposition (/metrics). Binds to 127.0.0.1 and opens metrics.db read-only.",
         "", one<run_dashboard_command>},
    };
}

// Commands that serve the others: a Slurm shard, help and shell completions.
std::vector<Command> plumbing_commands() {
    return {
        {"run-shard", "worker", "--job DIR --shard K/N [--attempt A]",
         "Makes shard K of N of a matrix submitted with --on slurm, as one task of its job "
         "array: the submitting host's command, settings and seed (DIR/job.json), recording "
         "into DIR/attempt-A/shard-K, which the host merges. Slurm runs it; people rarely do.",
         "", named<run_worker_command>, false},
        {"help", nullptr, "[COMMAND] [--man]",
         "Prints the general help, a command's help (the same as COMMAND --help), or with "
         "--man the manual page in roff.",
         "", named<run_help_command>, false},
        {"print-completions", "completions", "bash|zsh",
         "Prints the shell completion script, e.g. `source <(sandbox-runner "
         "print-completions bash)`; the package installs both.",
         "bash zsh", named<run_completions_command>, false},
    };
}

}  // namespace

// The groups in the order `--help` lists them.
const std::vector<Command> &commands() {
    static const std::vector<Command> table = [] {
        std::vector<Command> all;
        for (auto group : {run_commands, recorded_run_commands, cleanup_commands, history_commands,
                           extension_and_report_commands, plumbing_commands}) {
            const auto part = group();
            all.insert(all.end(), part.begin(), part.end());
        }
        return all;
    }();
    return table;
}

const Command *find_command(const std::string &name) {
    for (const auto &command : commands()) {
        if (name == command.name || (command.alias != nullptr && name == command.alias)) {
            return &command;
        }
    }
    return nullptr;
}

std::string usage_lines(const Command &command, const std::string &indent) {
    std::string text;
    for (const char *line = command.usage; *line != '\0';) {
        const char *end = std::strchr(line, '\n');
        const std::size_t length =
            end != nullptr ? static_cast<std::size_t>(end - line) : std::strlen(line);
        text += (line == command.usage ? "" : indent) + std::string(line, length) + "\n";
        line += length + (end != nullptr ? 1 : 0);
    }
    return text;
}

std::string commands_usage() {
    std::string text = "commands:\n";
    for (const auto &command : commands()) {
        text += "  ";
        text += command.name;
        if (command.alias != nullptr) {
            text += std::string(" (alias ") + command.alias + ")";
        }
        // Continuation lines are indented under the name.
        text += " " + usage_lines(command, "      ");
    }
    text += "\nRun `sandbox-runner help COMMAND` for what a command does.\n";
    return text;
}

}  // namespace sbx::cli
