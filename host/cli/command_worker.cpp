// `sandbox-runner run-shard --job DIR --attempt A --shard K/N`: one array task of a matrix
// submitted with `--on slurm`. It runs the host's command (job.json) with the host's
// options, its data dir the shard's folder, making only shard K's runs
// (attempt-A/tasks.json); the submitting host merges what it records.
#include <filesystem>
#include <iostream>

#include <boost/program_options.hpp>

#include "cli_context.hpp"
#include "cluster/node_state.hpp"
#include "cluster/shard_job.hpp"
#include "cluster/worker_node.hpp"
#include "command_table.hpp"
#include "engine/remote_runs.hpp"
#include "option_parsing.hpp"
#include "plugins/plugin.hpp"
#include "util/errors.hpp"

namespace sbx::cli {
namespace po = boost::program_options;

namespace {

// Runs the host's command (job.json) as this shard: its runs only, recorded in its data
// dir. Ends with engine::ShardFinished when they are made.
void make_shard(const GlobalOptions &global, cluster::ShardJob &job) {
    const auto &manifest = job.manifest;
    GlobalOptions options = global;
    options.config_path = cluster::submitted_settings_file(manifest);
    options.plugin_dirs = manifest.value("plugin_dirs", std::vector<std::string>());
    options.log_level = manifest.value("log_level", std::string());
    options.json_logs = manifest.value("json_logs", false);
    options.quiet = true;  // no progress line in a task's log
    options.data_dir = job.data_dir.string();
    const auto words = manifest.value("command", std::vector<std::string>());
    const Command *command = words.empty() ? nullptr : find_command(words[0]);
    if (command == nullptr) {
        throw InputError("run-shard: " + (job.folder / "job.json").string() + " names no command");
    }
    auto context = make_context(options);  // logging set up: the drop below is said
    cluster::drop_unusable_tmpdir();
    // The job folder's parent is the Slurm root (a worker's settings may not name it).
    context.settings.state_dir = cluster::node_state_folder(job.folder.parent_path()).string();
    cluster::sweep_node_leftovers(context.settings, context.registry());
    context.shard = &job.assignment;
    command->run(context, words[0], std::vector<std::string>(words.begin() + 1, words.end()));
}

}  // namespace

int run_worker_command(CliContext &bare, const std::string &,
                       const std::vector<std::string> &args) {
    std::string job_folder;
    std::string shard_text;
    int attempt = 1;
    po::options_description description("run-shard options");
    description.add_options()("job", po::value(&job_folder)->required(), "the job folder")(
        "attempt", po::value(&attempt), "the attempt (default 1)")(
        "shard", po::value(&shard_text)->required(), "K/N: this task's shard");
    parse_options("run-shard", args, description);
    auto job = cluster::read_shard_job(job_folder, attempt, shard_text);
    try {
        make_shard(bare.options, job);
    } catch (const InputError &refusal) {
        // A refusal (a settings file edited, a plan other than the host's, a limit this
        // node cannot hold, a plugin it lacks): the host reads it here, leaves the node
        // out of later attempts, and stops when every task refused.
        // Not when Slurm stopped the task (scancel, the time limit): what failed then
        // (a plugin call cut short) says nothing about the node.
        if (!plugins::cancel_requested()) {
            try {
                cluster::record_refusal(job, refusal.what());
            } catch (const std::exception &e) {  // the refusal is what the log must say
                std::cerr << "sandbox-runner: run-shard: cannot record the refusal: " << e.what()
                          << '\n';
            }
        }
        throw;
    } catch (const engine::ShardFinished &finished) {
        cluster::record_shard_done(job, finished.what());
        std::cout << "run-shard: shard " << job.shard << "/" << job.shards << ": "
                  << finished.what() << '\n';
        return kExitOk;
    }
    throw EnvironmentError("run-shard: the command ended without making its shard's runs");
}

}  // namespace sbx::cli
