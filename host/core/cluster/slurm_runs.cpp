// The array's life: submit, poll squeue, merge, resubmit what is missing.
#include "cluster/slurm_runs.hpp"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <sstream>
#include <thread>

#include <spdlog/spdlog.h>

#include <sbx/process_identity.hpp>
#include "cluster/node_state.hpp"
#include "cluster/shard_merge.hpp"
#include "cluster/slurm_commands.hpp"
#include "engine/cancelled.hpp"
#include "plugins/plugin.hpp"
#include "util/atomic_file.hpp"
#include "util/command_output.hpp"
#include "util/errors.hpp"
#include "util/hex_digest.hpp"
#include "util/number_parse.hpp"
#include "util/process_identity.hpp"
#include "util/shell_word.hpp"

namespace sbx::cluster {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string read_text(const fs::path &path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// sinfo's `field` (a format such as "%C") for each row of the partition, the default one
// (marked '*') when none is named; one row per node with `per_node`. Empty when sinfo does
// not answer.
std::vector<std::string> partition_rows(const std::string &partition, const std::string &field,
                                        bool per_node) {
    std::vector<std::string> argv = {"sinfo", "-h", "-o", "%P " + field};
    if (per_node) {
        argv.insert(argv.begin() + 1, "-N");
    }
    if (!partition.empty()) {
        argv.insert(argv.begin() + 1, "--partition=" + partition);
    }
    const auto result = util::command_output(argv, std::chrono::seconds(60));
    std::vector<std::string> rows;
    std::istringstream in(result.out);
    for (std::string line; std::getline(in, line);) {
        const auto space = line.find(' ');
        if (space != std::string::npos && space > 0 &&
            (!partition.empty() || line[space - 1] == '*')) {
            rows.push_back(line.substr(space + 1));
        }
    }
    return rows;
}

// The CPUs of the partition (sinfo's "allocated/idle/other/total"); 1 when sinfo does not
// say.
int partition_cpus(const std::string &partition) {
    const auto rows = partition_rows(partition, "%C", false);
    if (rows.empty()) {
        return 1;
    }
    const std::string &row = rows.front();
    const size_t total = row.rfind('/') + 1;  // 0 when there is no '/'
    const auto cpus = util::parse_int64(row.substr(total, row.find_last_not_of(' ') + 1 - total));
    return cpus ? static_cast<int>(std::clamp<int64_t>(*cpus, 1, std::numeric_limits<int>::max()))
                : 1;
}

// The nodes of the partition; empty when sinfo does not say.
std::set<std::string> partition_nodes(const std::string &partition) {
    const auto rows = partition_rows(partition, "%N", true);
    return {rows.begin(), rows.end()};
}

std::string last_line(const std::string &text) {
    std::string trimmed = text;
    while (!trimmed.empty() && trimmed.back() == '\n') {
        trimmed.pop_back();
    }
    const auto newline = trimmed.rfind('\n');
    return newline == std::string::npos ? trimmed : trimmed.substr(newline + 1);
}

// scancel of the array unless released (job_id cleared) when the wait ended normally.
struct ArrayGuard {
    std::string job_id;
    ~ArrayGuard() {
        if (!job_id.empty()) {
            cancel_job(job_id);
        }
    }
    ArrayGuard(const ArrayGuard &) = delete;
    ArrayGuard &operator=(const ArrayGuard &) = delete;
};

}  // namespace

fs::path job_folder(const config::Settings &settings, const fs::path &db_path, int64_t session) {
    // A digest of the store's path: two data dirs sharing one shared_dir never collide.
    const std::string tag =
        util::fnv1a_hex(fs::absolute(db_path).lexically_normal().string()).substr(0, 8);
    return slurm_root(settings) / ("s" + std::to_string(session) + "-" + tag);
}

SlurmRuns::SlurmRuns(const config::SlurmSettings &settings, store::Store &store, int64_t session,
                     fs::path folder, const json &worker, bool recover)
    : settings_(settings), store_(store), session_(session), folder_(std::move(folder)) {
    std::error_code error;
    if (!recover) {
        // A folder of an earlier session that had this id (its metrics.db since replaced)
        // must not lend this one its command, seed or shard stores.
        fs::remove_all(folder_, error);
    }
    fs::create_directories(folder_, error);
    if (error) {
        throw EnvironmentError("cannot create the Slurm job folder " + folder_.string() + ": " +
                               error.message() +
                               "; set slurm.shared_dir to a folder every node sees");
    }
    if (!fs::exists(folder_ / "job.json")) {
        write_file_atomically(folder_ / "job.json", worker.dump(2) + "\n");
    }
}

int SlurmRuns::next_attempt() const {
    int attempt = 1;
    while (fs::exists(attempt_folder(attempt))) {
        ++attempt;
    }
    return attempt;
}

fs::path SlurmRuns::attempt_folder(int attempt) const {
    return folder_ / ("attempt-" + std::to_string(attempt));
}

void SlurmRuns::catch_up() {
    for (int attempt = 1; fs::exists(attempt_folder(attempt)); ++attempt) {
        const std::string job_id = read_text(attempt_folder(attempt) / "job_id");
        if (!job_id.empty() && !active_tasks(job_id).empty()) {
            spdlog::info("waiting for Slurm job {} of the interrupted session to end", job_id);
            wait_for(job_id, attempt, nullptr);
        }
        const int merged = merge_attempt(attempt, nullptr);
        if (merged > 0) {
            spdlog::info("merged {} runs that Slurm job {} made meanwhile", merged, job_id);
        }
    }
}

std::string SlurmRuns::submit(int attempt, const std::vector<engine::PlannedRun> &runs) {
    const int wanted =
        settings_.shards > 0
            ? settings_.shards
            : std::max(1, partition_cpus(settings_.partition) / settings_.workers_per_task);
    const int shards = std::max(1, std::min<int>(wanted, static_cast<int>(runs.size())));
    // Interleaved: each shard gets a share of every cell, so shards take equal time.
    json tasks = json::array();
    for (int k = 0; k < shards; ++k) {
        tasks.push_back(json::array());
    }
    for (size_t i = 0; i < runs.size(); ++i) {
        tasks[i % static_cast<size_t>(shards)].push_back({runs[i].first, runs[i].second});
    }
    const fs::path attempt_dir = attempt_folder(attempt);
    fs::create_directories(attempt_dir);
    write_file_atomically(attempt_dir / "tasks.json", tasks.dump() + "\n");
    write_file_atomically(attempt_dir / "plan_digest", plan_digest_ + "\n");
    const json worker = json::parse(read_text(folder_ / "job.json"));
    const fs::path script = folder_ / "worker.sh";
    if (!fs::exists(script)) {
        write_file_atomically(
            script,
            "#!/bin/sh\n# One shard of a sandbox-runner matrix (written by the host).\n"
            "exec " +
                shell_quote(worker.value("program", std::string())) + " run-shard --job " +
                shell_quote(folder_.string()) +
                " --attempt \"$1\" --shard \"$SLURM_ARRAY_TASK_ID/$2\"\n");
        fs::permissions(script, fs::perms::owner_all, fs::perm_options::add);
    }
    ArrayRequest request;
    request.job_name =
        std::string(kJobNamePrefix) + std::to_string(session_) + "-" + std::to_string(attempt);
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    // The host is named once: own_identity() would add it again.
    request.comment =
        std::string(kJobCommentPrefix) + host + " " + ProcessIdentity::current().text();
    request.script = script.string();
    request.script_args = {std::to_string(attempt), std::to_string(shards)};
    request.output = (attempt_dir / "task-%a.log").string();
    request.working_dir = worker.value("cwd", std::string("/"));
    request.tasks = shards;
    // Never every node of the partition: sbatch would refuse the array outright, and a
    // refusal that repeats everywhere ends the matrix by the every-task rule instead.
    if (!refusing_nodes_.empty()) {
        const auto nodes = partition_nodes(settings_.partition);
        const bool all = !nodes.empty() &&
                         std::all_of(nodes.begin(), nodes.end(),
                                     [&](const auto &n) { return refusing_nodes_.count(n) > 0; });
        if (!all) {
            request.exclude_nodes = refusing_nodes_;
        }
    }
    std::string job_id = submit_array(settings_, request);
    write_file_atomically(attempt_dir / "job_id", job_id);
    spdlog::info("submitted {} runs as Slurm job {} ({} array tasks, job folder {})", runs.size(),
                 job_id, shards, folder_.string());
    return job_id;
}

bool SlurmRuns::still_active(const std::string &job_id) {
    // A busy controller times a query out now and then ("Socket timed out"): a few misses
    // in a row are waited out, more mean the controller is gone.
    constexpr int kMissesAllowed = 5;
    for (int misses = 0;; ++misses) {
        try {
            return !active_tasks(job_id).empty();
        } catch (const EnvironmentError &e) {
            if (misses + 1 >= kMissesAllowed || plugins::cancel_requested()) {
                throw;
            }
            spdlog::warn("{}; asking again", e.what());
            std::this_thread::sleep_for(std::chrono::seconds(1));
        }
    }
}

void SlurmRuns::wait_for(const std::string &job_id, int attempt, engine::RunObserver *observer) {
    const auto poll = std::chrono::duration<double>(settings_.poll_interval_s);
    while (still_active(job_id)) {
        if (plugins::cancel_requested()) {
            cancel_job(job_id);
            // The tasks stop within Slurm's KillWait; what they committed is kept.
            for (int i = 0; i < 600 && !active_tasks(job_id).empty(); ++i) {
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
            }
            const int merged = merge_attempt(attempt, observer);
            throw engine::Cancelled("cancelled Slurm job " + job_id + "; " +
                                    std::to_string(merged) +
                                    " finished runs are recorded, and --recover makes the rest");
        }
        std::this_thread::sleep_for(poll);
    }
}

int SlurmRuns::merge_attempt(int attempt, engine::RunObserver *observer) {
    const auto started = std::chrono::steady_clock::now();
    int merged = 0;
    const fs::path attempt_dir = attempt_folder(attempt);
    for (int shard = 0; shard < shard_count(attempt); ++shard) {
        // A task that never started (cancelled while pending) has no folder: skipped.
        const auto count = merge_shard(
            store_, session_, attempt_dir / ("shard-" + std::to_string(shard)) / "metrics.db");
        merged += count.merged;
        if (observer != nullptr) {
            for (int i = 0; i < count.merged; ++i) {
                observer->finished(i < count.passed);
            }
        }
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (merged > 0) {
        spdlog::info("merged {} runs of attempt {} in {:.3f} s ({:.0f} runs/s)", merged, attempt,
                     seconds, merged / std::max(seconds, 1e-9));
    }
    return merged;
}

int SlurmRuns::shard_count(int attempt) const {
    const json tasks =
        json::parse(read_text(attempt_folder(attempt) / "tasks.json"), nullptr, false);
    return tasks.is_array() ? static_cast<int>(tasks.size()) : 0;
}

std::vector<Refusal> SlurmRuns::refusals(int attempt) const {
    std::vector<Refusal> found;
    for (int task = 0; task < shard_count(attempt); ++task) {
        std::string said =
            read_text(attempt_folder(attempt) / ("shard-" + std::to_string(task)) / kRefusedFile);
        while (!said.empty() && said.back() == '\n') {
            said.pop_back();
        }
        if (said.empty()) {
            continue;
        }
        // "node N: why"
        Refusal refusal{task, "", said};
        if (said.rfind("node ", 0) == 0) {
            const auto colon = said.find(": ");
            refusal.node = said.substr(5, colon == std::string::npos ? 0 : colon - 5);
        }
        found.push_back(std::move(refusal));
    }
    return found;
}

std::string SlurmRuns::lost_tasks(const std::string &job_id, int attempt) const {
    std::string text;
    const auto ended = ended_tasks(job_id);
    for (int task = 0; task < shard_count(attempt); ++task) {
        const auto found = ended.find(task);
        // A task cancelled while pending is forgotten by Slurm at once.
        const std::string state = found == ended.end() ? "(no record)" : found->second;
        const fs::path done = attempt_folder(attempt) / ("shard-" + std::to_string(task)) / "done";
        if (state == "COMPLETED" || (found == ended.end() && fs::exists(done))) {
            continue;
        }
        const std::string log =
            read_text(attempt_folder(attempt) / ("task-" + std::to_string(task) + ".log"));
        text += "\n  task " + std::to_string(task) + " " + state;
        if (!log.empty()) {
            text += ": " + last_line(log);
        }
    }
    return text;
}

void SlurmRuns::run(const std::vector<engine::PlannedRun> &runs, engine::RunObserver *observer,
                    const MissingRuns &missing) {
    std::vector<engine::PlannedRun> pending = runs;
    for (int round = 0; !pending.empty(); ++round) {
        if (plugins::cancel_requested()) {
            throw engine::Cancelled("stopped before submitting the " +
                                    std::to_string(pending.size()) +
                                    " runs still missing; --recover makes them");
        }
        const int attempt = next_attempt();
        const std::string job_id = submit(attempt, pending);
        // Whatever ends this wait early (an error, a controller gone) takes the array with it:
        // no task may outlive the host that would merge it, unwatched.
        ArrayGuard guard{job_id};
        wait_for(job_id, attempt, observer);
        guard.job_id.clear();
        merge_attempt(attempt, observer);
        pending = missing(pending);
        if (pending.empty()) {
            break;
        }
        const auto refused = refusals(attempt);
        std::string refused_text;
        for (const auto &refusal : refused) {
            refused_text += "\n  task " + std::to_string(refusal.task) + ", " + refusal.said;
            if (!refusal.node.empty()) {
                refusing_nodes_.insert(refusal.node);
            }
        }
        if (!refused.empty() && static_cast<int>(refused.size()) == shard_count(attempt)) {
            // Every task refused: the next attempt would too (the settings, the plan, or
            // every node the partition offers).
            std::string message = "Slurm job " + job_id + ": every task refused its shard, so ";
            message += std::to_string(pending.size());
            message += " runs are not made (the session keeps the others):";
            message += refused_text;
            throw InputError(message);
        }
        if (!refused.empty()) {
            spdlog::warn(
                "Slurm job {}: {} tasks refused their shards; their nodes are left out of "
                "the next attempt:{}",
                job_id, refused.size(), refused_text);
        }
        const std::string lost = lost_tasks(job_id, attempt);
        if (round >= settings_.resubmits) {
            spdlog::error("Slurm job {} left {} runs undone after {} resubmissions:{}", job_id,
                          pending.size(), settings_.resubmits, lost);
            return;
        }
        spdlog::warn("Slurm job {} left {} runs undone; submitting them again ({} of {}):{}",
                     job_id, pending.size(), round + 1, settings_.resubmits, lost);
    }
}

namespace {

// Removes every empty folder under `folder`, deepest first, and `folder` itself when that
// leaves it empty; a folder with a file stays. True when `folder` is gone.
bool remove_empty_folders(const fs::path &folder) {
    std::error_code error;
    if (!fs::is_directory(fs::symlink_status(folder, error))) {
        return false;
    }
    for (const auto &entry : fs::directory_iterator(folder, error)) {
        if (entry.is_directory(error) && !entry.is_symlink(error)) {
            remove_empty_folders(entry.path());
        }
    }
    return fs::remove(folder, error);  // fails, leaving it, unless it is empty now
}

}  // namespace

void SlurmRuns::remove_folder(bool with_empty_parent) {
    std::error_code ignored;
    fs::remove_all(folder_, ignored);
    if (with_empty_parent) {
        // The nodes' state folders (node_state.hpp) hold what a crash would leave; once the
        // job is over, folders the injectors made and emptied again are all that may be left
        // of them there. A record still in one keeps it, and the root with it.
        remove_empty_folders(folder_.parent_path() / ("nodes-" + std::to_string(::geteuid())));
        fs::remove(folder_.parent_path(), ignored);  // only when no other job folder is left
    }
}

}  // namespace sbx::cluster
