#include "engine/stale_services.hpp"

#include <signal.h>
#include <sys/types.h>

#include <sbx/process_identity.hpp>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>

#include "util/number_parse.hpp"
#include "util/process_identity.hpp"

namespace sbx::engine {
namespace {

// True when `pid`'s environment holds `marker` (SANDBOX_SERVICE_ID=<id>), which every
// process a service starts inherits.
bool carries(pid_t pid, const std::string &marker) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/environ", std::ios::binary);
    const std::string environment((std::istreambuf_iterator<char>(in)),
                                  std::istreambuf_iterator<char>());
    const std::string nul(1, '\0');
    return (nul + environment).find(nul + marker + nul) != std::string::npos;
}

// Live processes (a zombie is already dead: only its parent's wait is missing) that carry
// the service's `marker` and pass `also`.
std::vector<pid_t> marked_processes(const std::string &marker,
                                    const std::function<bool(pid_t)> &also) {
    std::vector<pid_t> marked;
    std::error_code ec;
    for (std::filesystem::directory_iterator it("/proc", ec), end; !ec && it != end;
         it.increment(ec)) {
        const auto pid =
            util::parse_int64(it->path().filename().string(), util::LeadingPlus::refused);
        if (!pid || *pid <= 0 || *pid > std::numeric_limits<pid_t>::max()) {
            continue;
        }
        const auto process = static_cast<pid_t>(*pid);
        if (proc_stat_field(process, 3) != "Z" && also(process) && carries(process, marker)) {
            marked.push_back(process);
        }
    }
    return marked;
}

// Live processes of group `group` that started no earlier than its leader did (`since`)
// and carry the service's `marker`: the service and what it started, never an unrelated
// later group that reuses the number.
std::vector<pid_t> group_members(pid_t group, unsigned long long since, const std::string &marker) {
    return marked_processes(marker, [&](pid_t pid) {
        const auto pgrp = proc_stat_field(pid, 5);
        return pgrp && *pgrp == std::to_string(group) && process_start_time(pid) >= since;
    });
}

// Live processes carrying the service's `marker`, whatever their group: what a service
// whose host died before recording its process group started.
std::vector<pid_t> marked_processes(const std::string &marker) {
    return marked_processes(marker, [](pid_t) { return true; });
}

}  // namespace

std::vector<std::string> sweep_services(const std::filesystem::path &state_dir, bool dry_run,
                                        const std::string &containers_unreachable) {
    std::vector<std::string> swept;
    const auto folder = state_dir / "services";
    std::error_code ec;
    for (std::filesystem::directory_iterator it(folder, ec), end; !ec && it != end;
         it.increment(ec)) {
        if (it->path().extension() == ".d") {
            // A folder whose record was never written (the host died between the two):
            // its host's pid is the first part of its name.
            std::error_code none;
            const auto record = it->path().parent_path() / it->path().stem().concat(".json");
            const std::string id = it->path().stem().string();  // "<host pid>-<n>"
            const auto host =
                util::parse_int64(id.substr(0, id.find('-')), util::LeadingPlus::refused)
                    .value_or(0);
            if (!std::filesystem::exists(record, none) && host > 0 &&
                host <= std::numeric_limits<pid_t>::max() &&
                ::kill(static_cast<pid_t>(host), 0) != 0 && errno == ESRCH) {
                const auto marked = marked_processes("SANDBOX_SERVICE_ID=" + id);
                swept.push_back("folder " + it->path().filename().string() + " of host " +
                                std::to_string(host) +
                                " (no record): " + std::to_string(marked.size()) + " process(es)");
                if (!dry_run) {
                    for (const pid_t member : marked) {
                        ::kill(member, SIGKILL);
                    }
                    std::filesystem::remove_all(it->path(), none);
                }
            }
            continue;
        }
        if (it->path().extension() != ".json") {
            continue;
        }
        std::ifstream in(it->path());
        const auto record = nlohmann::json::parse(in, nullptr, false);
        const auto text = [&](const char *key) {
            const auto found = record.is_object() ? record.find(key) : record.end();
            return record.is_object() && found != record.end() && found->is_string()
                       ? found->get<std::string>()
                       : std::string();
        };
        const auto number = [&](const char *key) {
            const auto found = record.is_object() ? record.find(key) : record.end();
            return record.is_object() && found != record.end() && found->is_number_integer() &&
                           found->get<long long>() > 0
                       ? found->get<unsigned long long>()
                       : 0ULL;
        };
        const std::string host = text("host");
        if (!record.is_object() || identity_alive(host)) {
            continue;  // a live host's service, or a record being written
        }
        // The id is the record's name: "<host pid>-<n>".
        // A record of pid 0 was written before the fork: its group was never recorded, so
        // the service's processes are found by their marker alone.
        const auto group = static_cast<pid_t>(number("pid"));
        const std::string marker = "SANDBOX_SERVICE_ID=" + it->path().stem().string();
        const auto members =
            group > 1 ? group_members(group, number("start"), marker) : marked_processes(marker);
        const std::string container = text("container");
        swept.push_back((text("name").empty() ? "?" : text("name")) + " of host " +
                        host.substr(0, host.find(' ')) + ": " + std::to_string(members.size()) +
                        " process(es)");
        if (!container.empty() && !containers_unreachable.empty()) {
            // Kept, so check-resources goes on saying so, until the engine can be asked.
            swept.back().append(", container ").append(container).append(" (not removed: ");
            swept.back().append(containers_unreachable).append(")");
            continue;
        }
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
