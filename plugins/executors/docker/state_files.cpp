// The docker executor's state files, kept with the executors' shared locked JSON file.
#include "state_files.hpp"
#include "support/environment_variable.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace sbx::docker {

using nlohmann::json;

// Only a path: whoever writes there creates it (update_json_file, ScopedFolder), so a
// reader such as `check-resources` leaves no folder behind.
std::string docker_state_folder(const std::string &state_dir) {
    return state_dir + "/docker";
}

std::string active_containers_path(const std::string &state_dir) {
    if (const char *variable = support::environment_variable("SANDBOX_ACTIVE_CONTAINERS")) {
        return variable;
    }
    return docker_state_folder(state_dir) + "/active_containers.json";
}

std::string pool_failures_path(const std::string &state_dir) {
    return docker_state_folder(state_dir) + "/pool_failures.json";
}

void register_active(const std::string &path, const std::string &id, const json &entry) {
    update_json_file(path, [&](json &active) { active[id] = entry; });
}

void unregister_active(const std::string &path, const std::string &id) {
    update_json_file(path, [&](json &active) { active.erase(id); });
}

FailureCount record_start_failure(const std::string &path, const std::string &image,
                                  const std::string &message, double seconds,
                                  std::uint64_t threshold) {
    FailureCount count;
    update_json_file(path, [&](json &counters) {
        json &entry = counters[image];
        if (!entry.is_object()) {
            entry = json::object();
        }
        count.failures = entry.value("failures", std::uint64_t{0}) + 1;
        count.consecutive = entry.value("consecutive", std::uint64_t{0}) + 1;
        entry["failures"] = count.failures;
        entry["consecutive"] = count.consecutive;
        entry["last_error"] = message;
        entry["last_failure"] = static_cast<std::int64_t>(std::time(nullptr));
        entry["last_seconds"] = seconds;
        if (count.consecutive == threshold) {
            entry["alerts"] = entry.value("alerts", std::uint64_t{0}) + 1;
        }
    });
    return count;
}

void record_start_success(const std::string &path, const std::string &image, double seconds) {
    // One locked write per container start: a start takes the engine 100 ms or more, the
    // write a fraction of a millisecond, and the pool reuses containers across runs.
    update_json_file(path, [&](json &counters) {
        json &entry = counters[image];
        if (!entry.is_object()) {
            entry = json::object();
        }
        entry["successes"] = entry.value("successes", std::uint64_t{0}) + 1;
        entry["consecutive"] = 0;
        entry["last_seconds"] = seconds;
    });
}

}  // namespace sbx::docker
