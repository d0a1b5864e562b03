// Reading a Slurm job folder for one array task, and writing back how the task ended.
#include "cluster/shard_job.hpp"

#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <tuple>

#include "cluster/matrix_placement.hpp"
#include "cluster/node_state.hpp"
#include "cluster/slurm_runs.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"
#include "util/number_parse.hpp"

namespace sbx::cluster {
namespace fs = std::filesystem;
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

}  // namespace

ShardJob read_shard_job(const std::string &job, int attempt, const std::string &shard_text) {
    ShardJob shard_job;
    std::tie(shard_job.shard, shard_job.shards) = parse_shard(shard_text);
    // Absolute and without a trailing '/': its parent is the Slurm root.
    shard_job.folder = fs::weakly_canonical(fs::absolute(job));
    shard_job.manifest = read_json(shard_job.folder / "job.json");
    const fs::path attempt_dir = shard_job.folder / ("attempt-" + std::to_string(attempt));
    const json tasks = read_json(attempt_dir / "tasks.json");
    if (!tasks.is_array() || static_cast<int>(tasks.size()) != shard_job.shards) {
        throw InputError("run-shard: " + (attempt_dir / "tasks.json").string() + " has " +
                         std::to_string(tasks.size()) + " shards, --shard says " +
                         std::to_string(shard_job.shards));
    }
    for (const auto &run : tasks[static_cast<size_t>(shard_job.shard)]) {
        shard_job.assignment.runs.emplace(run.at(0).get<size_t>(), run.at(1).get<int>());
    }
    // The host's plan, which this worker's must equal (absent: not checked).
    std::ifstream(attempt_dir / "plan_digest") >> shard_job.assignment.plan_digest;

    shard_job.data_dir = attempt_dir / ("shard-" + std::to_string(shard_job.shard));
    std::error_code ignored;
    fs::remove(shard_job.data_dir / kRefusedFile, ignored);  // a requeued task's earlier one
    return shard_job;
}

std::string submitted_settings_file(const json &manifest) {
    std::string config = manifest.value("config", std::string());
    if (const std::string kept = manifest.value("config_digest", std::string());
        !kept.empty() && kept != settings_digest(config)) {
        throw InputError("run-shard: the settings file " + config +
                         " changed since the matrix was submitted; put it back, or submit the "
                         "matrix again");
    }
    return config;
}

void record_refusal(const ShardJob &job, const std::string &reason) {
    fs::create_directories(job.data_dir);
    write_file_atomically(job.data_dir / kRefusedFile,
                          "node " + slurm_node_name() + ": " + reason + "\n");
}

void record_shard_done(const ShardJob &job, const std::string &what) {
    write_file_atomically(job.data_dir / "done", what + "\n");
}

}  // namespace sbx::cluster
