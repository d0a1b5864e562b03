// `sandbox-runner run-shard --job DIR --attempt A --shard K/N`: one array task of a matrix
// submitted with `--on slurm`. It runs the host's command (job.json) with the host's
// options, its data dir the shard's folder, making only shard K's runs
// (attempt-A/tasks.json); the submitting host merges what it records.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "cli_context.hpp"
#include "cluster/node_state.hpp"
#include "cluster/slurm_runs.hpp"
#include "cluster/worker_node.hpp"
#include "cluster_placement.hpp"
#include "command_table.hpp"
#include "engine/remote_runs.hpp"
#include "option_parsing.hpp"
#include "plugins/plugin.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"
#include "util/number_parse.hpp"

namespace sbx::cli {
namespace fs = std::filesystem;
namespace po = boost::program_options;
using nlohmann::json;

namespace {

json read_json(const fs::path &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw InputError("run-shard: cannot read " + path.string() +
                         "; --job must name the job folder the submitting host wrote");
    }
    std::ostringstream text;
    text << in.rdbuf();
    json value = json::parse(text.str(), nullptr, false);
    if (value.is_discarded()) {
        throw InputError("run-shard: " + path.string() + " is not JSON");
    }
    return value;
}

// "K/N" -> (K, N) with 0 <= K < N.
std::pair<int, int> parse_shard(const std::string &text) {
    const auto slash = text.find('/');
    const auto k = util::parse_int64(text.substr(0, slash));
    const auto n =
        slash == std::string::npos ? std::nullopt : util::parse_int64(text.substr(slash + 1));
    if (k && n && *k >= 0 && *k < *n && *n <= std::numeric_limits<int>::max()) {
        return {static_cast<int>(*k), static_cast<int>(*n)};
    }
    throw InputError("run-shard: --shard '" + text + "' must be K/N with 0 <= K < N, e.g. 3/16");
}

// Runs the host's command (job.json) as this shard: its runs only, recorded in `data_dir`.
// Ends with engine::ShardFinished when they are made.
void make_shard(const GlobalOptions &global, const json &manifest, const fs::path &folder,
                const fs::path &data_dir, engine::ShardAssignment &assignment) {
    GlobalOptions options = global;
    options.config_path = manifest.value("config", std::string());
    if (const std::string kept = manifest.value("config_digest", std::string());
        !kept.empty() && kept != settings_digest(options.config_path)) {
        throw InputError("run-shard: the settings file " + options.config_path +
                         " changed since the matrix was submitted; put it back, or submit the "
                         "matrix again");
    }
    options.plugin_dirs = manifest.value("plugin_dirs", std::vector<std::string>());
    options.log_level = manifest.value("log_level", std::string());
    options.json_logs = manifest.value("json_logs", false);
    options.quiet = true;  // no progress line in a task's log
    options.data_dir = data_dir.string();
    const auto words = manifest.value("command", std::vector<std::string>());
    const Command *command = words.empty() ? nullptr : find_command(words[0]);
    if (command == nullptr) {
        throw InputError("run-shard: " + (folder / "job.json").string() + " names no command");
    }
    auto context = make_context(options);  // logging set up: the drop below is said
    cluster::drop_unusable_tmpdir();
    // The job folder's parent is the Slurm root (a worker's settings may not name it).
    context.settings.state_dir = cluster::node_state_folder(folder.parent_path()).string();
    cluster::sweep_node_leftovers(context.settings, context.registry());
    context.shard = &assignment;
    command->run(context, words[0], std::vector<std::string>(words.begin() + 1, words.end()));
}

}  // namespace

int run_worker_command(CliContext &bare, const std::string &,
                       const std::vector<std::string> &args) {
    std::string job;
    std::string shard_text;
    int attempt = 1;
    po::options_description description("run-shard options");
    description.add_options()("job", po::value(&job)->required(), "the job folder")(
        "attempt", po::value(&attempt), "the attempt (default 1)")(
        "shard", po::value(&shard_text)->required(), "K/N: this task's shard");
    parse_options("run-shard", args, description);
    const auto [shard, shards] = parse_shard(shard_text);
    // Absolute and without a trailing '/': its parent is the Slurm root.
    const fs::path folder = fs::weakly_canonical(fs::absolute(job));
    const json manifest = read_json(folder / "job.json");
    const fs::path attempt_dir = folder / ("attempt-" + std::to_string(attempt));
    const json tasks = read_json(attempt_dir / "tasks.json");
    if (!tasks.is_array() || static_cast<int>(tasks.size()) != shards) {
        throw InputError("run-shard: " + (attempt_dir / "tasks.json").string() + " has " +
                         std::to_string(tasks.size()) + " shards, --shard says " +
                         std::to_string(shards));
    }
    engine::ShardAssignment assignment;
    for (const auto &run : tasks[static_cast<size_t>(shard)]) {
        assignment.runs.emplace(run.at(0).get<size_t>(), run.at(1).get<int>());
    }
    // The host's plan, which this worker's must equal (absent: not checked).
    std::ifstream(attempt_dir / "plan_digest") >> assignment.plan_digest;

    const fs::path data_dir = attempt_dir / ("shard-" + std::to_string(shard));
    std::error_code ignored;
    fs::remove(data_dir / cluster::kRefusedFile, ignored);  // a requeued task's earlier one
    try {
        make_shard(bare.options, manifest, folder, data_dir, assignment);
    } catch (const InputError &refusal) {
        // A refusal (a settings file edited, a plan other than the host's, a limit this
        // node cannot hold, a plugin it lacks): the host reads it here, leaves the node
        // out of later attempts, and stops when every task refused.
        // Not when Slurm stopped the task (scancel, the time limit): what failed then
        // (a plugin call cut short) says nothing about the node.
        if (!plugins::cancel_requested()) {
            try {
                fs::create_directories(data_dir);
                write_file_atomically(
                    data_dir / cluster::kRefusedFile,
                    "node " + cluster::slurm_node_name() + ": " + refusal.what() + "\n");
            } catch (const std::exception &e) {  // the refusal is what the log must say
                std::cerr << "sandbox-runner: run-shard: cannot record the refusal: " << e.what()
                          << '\n';
            }
        }
        throw;
    } catch (const engine::ShardFinished &finished) {
        write_file_atomically(data_dir / "done", std::string(finished.what()) + "\n");
        std::cout << "run-shard: shard " << shard << "/" << shards << ": " << finished.what()
                  << '\n';
        return kExitOk;
    }
    throw EnvironmentError("run-shard: the command ended without making its shard's runs");
}

}  // namespace sbx::cli
