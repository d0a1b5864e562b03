// The host side of `--on slurm`: job.json for the workers, and the SlurmRuns of the session.
#include "cluster/matrix_placement.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iterator>

#include "cluster/slurm_commands.hpp"
#include "util/errors.hpp"
#include "util/hex_digest.hpp"

namespace sbx::cluster {
namespace fs = std::filesystem;

namespace {

// Options only the submitting host acts on, with whether each takes a value.
const std::vector<std::pair<std::string, bool>> &host_only_options() {
    static const std::vector<std::pair<std::string, bool>> options = {
        {"--on", true},    {"--recover", false},       {"--report", true},
        {"--plot", true},  {"--fail-on", true},        {"--shrink-runs", true},
        {"--json", false}, {"--dashboard-port", true}, {"--metrics-port", true},
        {"--seed", true},  {"--workers", true}};
    return options;
}

}  // namespace

std::string settings_digest(const std::string &config_path) {
    if (config_path.empty()) {
        return "";
    }
    std::ifstream in(config_path, std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    return util::fnv1a_hex(text);
}

std::string checked_placement(const std::string &command, const std::string &on) {
    if (on.empty() || on == "local") {
        return "local";
    }
    if (on == "slurm") {
        // Asked before the session begins: a missing Slurm leaves no session behind. Once
        // per process: a command checks its placement at parsing, session and submission.
        static const bool installed = slurm_installed();
        if (!installed) {
            throw EnvironmentError(command +
                                   ": --on slurm needs Slurm's client commands, and sbatch "
                                   "does not run here; install them (Debian: slurm-client, "
                                   "configured for your cluster), or leave --on out to run "
                                   "on this host");
        }
        return on;
    }
    throw InputError(command + ": --on '" + on +
                     "' is not a place to run; write --on local (this host, the default) or "
                     "--on slurm (a job array on the Slurm cluster)");
}

std::vector<std::string> worker_words(const std::string &command,
                                      const std::vector<std::string> &args, int64_t seed,
                                      int workers) {
    std::vector<std::string> words = {command};
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string &word = args[i];
        if (word == "--") {
            words.insert(words.end(), args.begin() + static_cast<long>(i), args.end());
            break;
        }
        bool dropped = false;
        for (const auto &[name, takes_value] : host_only_options()) {
            if (word == name) {
                i += takes_value ? 1 : 0;
                dropped = true;
                break;
            }
            if (takes_value && word.rfind(name + "=", 0) == 0) {
                dropped = true;
                break;
            }
        }
        if (!dropped) {
            words.push_back(word);
        }
    }
    words.insert(words.end(),
                 {"--seed", std::to_string(seed), "--workers", std::to_string(workers)});
    return words;
}

MatrixPlacement::MatrixPlacement(const config::Settings &settings, const WorkerLaunch &launch,
                                 const std::string &on, store::Store &store, int64_t session,
                                 bool recover, const std::string &command,
                                 const std::vector<std::string> &args, int64_t seed) {
    if (on != "slurm") {
        return;
    }
    std::vector<std::string> plugin_dirs;
    for (const auto &dir : launch.plugin_dirs) {
        plugin_dirs.push_back(fs::absolute(dir).string());
    }
    std::error_code error;
    const fs::path program = fs::read_symlink("/proc/self/exe", error);
    const nlohmann::json worker = {
        {"program", error ? launch.program_path : program.string()},
        {"cwd", fs::current_path().string()},
        {"config", launch.config_path.empty() ? "" : fs::absolute(launch.config_path).string()},
        {"config_digest", settings_digest(launch.config_path)},
        {"plugin_dirs", plugin_dirs},
        {"log_level", launch.log_level},
        {"json_logs", launch.json_logs},
        {"command", worker_words(command, args, seed, settings.slurm.workers_per_task)}};
    const fs::path db = fs::path(settings.data_dir) / "metrics.db";
    slurm_.emplace(settings.slurm, store, session, job_folder(settings, db, session), worker,
                   recover);
    own_root_ = settings.slurm.shared_dir.empty();
}

void MatrixPlacement::finished() {
    if (slurm_) {
        slurm_->remove_folder(own_root_);
    }
}

}  // namespace sbx::cluster
