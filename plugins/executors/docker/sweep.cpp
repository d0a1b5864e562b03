// The containers of dead hosts are found and removed by the one sweep every container of
// this tool goes through (support/docker_engine/stale_containers); what is the executor's
// own is here: the ids file, the private folders and the parent cgroups. The owner of an
// ids-file entry is judged from its labels by the same host_alive (a reused pid is not its
// host).
#include "sweep.hpp"

#include <sbx/plugin.hpp>

#include <chrono>
#include <filesystem>
#include <set>

#include "cgroup_usage.hpp"
#include "state_files.hpp"
#include "support/docker_engine/stale_containers.hpp"
#include "support/number_parse.hpp"

namespace sbx::docker {

using nlohmann::json;

namespace {

// Private folders named "<pid>-XXXXXX" whose pid is not a live process.
void sweep_io_folders(const std::string &state_dir, bool dry_run, json &removed) {
    const std::filesystem::path folder = std::filesystem::path(state_dir) / "docker" / "io";
    std::error_code error;
    for (const auto &entry : std::filesystem::directory_iterator(folder, error)) {
        const std::string name = entry.path().filename().string();
        const auto pid =
            support::parse_int64(name.substr(0, name.find('-')), support::LeadingPlus::refused)
                .value_or(0);
        if (pid <= 0 || std::filesystem::exists("/proc/" + std::to_string(pid))) {
            continue;
        }
        if (!dry_run) {
            std::filesystem::remove_all(entry.path(), error);
        }
        removed.push_back("private folder " + entry.path().string() + " of dead host " +
                          std::to_string(pid));
    }
}

}  // namespace

json sweep_stale(EngineApi &api, const ExecutorConfig &config, const json &request,
                 CleanupTally &tally) {
    const auto started = std::chrono::steady_clock::now();
    std::size_t containers_removed = 0;
    const std::string state_dir = request.value("state_dir", config.state_dir);
    const bool dry_run = request.value("dry_run", false);
    const std::string active_path = active_containers_path(state_dir);
    json removed = json::array();
    std::set<std::string> seen;

    std::vector<StaleContainer> stale;
    try {
        stale = find_stale_containers(api, config.pool_label);
    } catch (const EngineError &e) {
        // No engine, no containers to remove; but ids recorded by a dead host mean some
        // may exist in an engine that is down: say so rather than report a clean state.
        const json active = read_json_file(active_path);
        if (!active.empty()) {
            throw Error(SBX_ERROR, std::string("cannot list containers: ") + e.what() + "; " +
                                       std::to_string(active.size()) +
                                       " container id(s) are recorded in " + active_path);
        }
        host::log(SBX_LOG_DEBUG, std::string("no Docker engine to sweep: ") + e.what());
        sweep_io_folders(state_dir, dry_run, removed);
        for (auto &line : sweep_parent_cgroups(dry_run)) {
            removed.push_back(std::move(line));
        }
        return json{{"removed", removed}};
    }
    for (const StaleContainer &container : stale) {
        if (!dry_run) {
            api.remove_container(container.id);
            ++containers_removed;
        }
        seen.insert(container.id);
        removed.push_back(container.describe());
    }
    // The ids file: entries of dead hosts. Their containers, when they still exist, carry
    // the label (checked again: an id is never removed on the file's word alone).
    json stale_ids = json::array();
    const json active = read_json_file(active_path);
    for (const auto &[id, entry] : active.items()) {
        const json labels = entry.value("labels", json::object());
        if (host_alive(labels, config.pool_label)) {
            continue;
        }
        stale_ids.push_back(id);
        if (seen.count(id) != 0) {
            continue;
        }
        try {
            const json inspected = api.inspect_container(id);
            const json labels_now = inspected["Config"].value("Labels", json::object());
            if (labels_now.contains(config.pool_label) && !dry_run) {
                api.remove_container(id);
                ++containers_removed;
                removed.push_back("container " + id.substr(0, 12) + " (from " + active_path + ")");
            }
        } catch (const EngineError &e) {
            if (e.http_status() != 404) {
                throw;
            }
        }
    }
    if (!dry_run && !stale_ids.empty()) {
        update_json_file(active_path, [&](json &recorded) {
            for (const auto &id : stale_ids) {
                recorded.erase(id.get<std::string>());
            }
        });
    }
    sweep_io_folders(state_dir, dry_run, removed);
    for (auto &line : sweep_parent_cgroups(dry_run)) {
        removed.push_back(std::move(line));
    }
    if (containers_removed > 0) {
        tally.add(kStaleRemoved, static_cast<double>(containers_removed));
        tally.set(
            kReaperDuration,
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    }
    return json{{"removed", removed}};
}

}  // namespace sbx::docker
