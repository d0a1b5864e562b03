#include "engine/stale_services.hpp"

#include <signal.h>
#include <sys/types.h>

#include <sbx/process_identity.hpp>

#include <fstream>
#include <nlohmann/json.hpp>

#include "util/process_identity.hpp"

namespace sbx::engine {
namespace {

// Live processes of group `group` that started no earlier than its leader did (`since`):
// the service and what it started, never an unrelated later group that reuses the number.
std::vector<pid_t> group_members(pid_t group, unsigned long long since) {
    std::vector<pid_t> members;
    std::error_code ec;
    for (std::filesystem::directory_iterator it("/proc", ec), end; !ec && it != end;
         it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) {
            continue;
        }
        const auto pid = static_cast<pid_t>(std::stol(name));
        const auto pgrp = proc_stat_field(pid, 5);
        // A zombie is already dead: only its parent's wait is missing.
        if (pgrp && *pgrp == std::to_string(group) && proc_stat_field(pid, 3) != "Z" &&
            process_start_time(pid) >= since) {
            members.push_back(pid);
        }
    }
    return members;
}

}  // namespace

std::vector<std::string> sweep_services(const std::filesystem::path &state_dir, bool dry_run) {
    std::vector<std::string> swept;
    const auto folder = state_dir / "services";
    std::error_code ec;
    for (std::filesystem::directory_iterator it(folder, ec), end; !ec && it != end;
         it.increment(ec)) {
        if (it->path().extension() != ".json") {
            continue;
        }
        std::ifstream in(it->path());
        const auto record = nlohmann::json::parse(in, nullptr, false);
        if (!record.is_object() || identity_alive(record.value("host", ""))) {
            continue;  // a live host's service, or a record being written
        }
        const auto group = static_cast<pid_t>(record.value("pid", 0));
        const auto members =
            group > 1 ? group_members(group, record.value("start", 0ULL)) : std::vector<pid_t>();
        const std::string host = record.value("host", "");
        swept.push_back(record.value("name", std::string("?")) + " of host " +
                        host.substr(0, host.find(' ')) + ": " + std::to_string(members.size()) +
                        " process(es)");
        if (dry_run) {
            continue;
        }
        for (const pid_t member : members) {
            ::kill(member, SIGKILL);
        }
        std::error_code ignored;
        std::filesystem::remove_all(it->path().parent_path() / it->path().stem().concat(".d"),
                                    ignored);
        std::filesystem::remove(it->path(), ignored);
    }
    return swept;
}

}  // namespace sbx::engine
