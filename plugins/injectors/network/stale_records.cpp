// Record files: "<host pid> <host start time> <namespace> <host-side link or ->".
#include "stale_records.hpp"

#include <sbx/plugin.hpp>

#include <signal.h>
#include <unistd.h>

#include <cerrno>

#include <fstream>
#include <sstream>

#include "named_namespace.hpp"

namespace sbx::network {

NamespaceRecord::NamespaceRecord(const std::filesystem::path &folder, const std::string &netns,
                                 const std::string &host_link) {
    if (folder.empty()) {
        return;
    }
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    const std::filesystem::path path = folder / netns;
    std::ofstream out(path);
    out << ::getpid() << ' ' << process_start_time(::getpid()) << ' ' << netns << ' '
        << (host_link.empty() ? "-" : host_link) << '\n';
    out.close();
    if (!out) {
        throw Error(SBX_ERROR, "cannot write the record " + path.string() +
                                   " that lets sweep remove namespace " + netns +
                                   " after a crash; check that the state folder is writable");
    }
    path_ = path;
    netns_ = netns;
    host_link_ = host_link;
}

NamespaceRecord::~NamespaceRecord() {
    // Kept while what it names still exists (a failed delete): sweep retries later.
    if (!path_.empty() && !namespace_exists(netns_) && !link_exists(host_link_)) {
        std::error_code ec;
        std::filesystem::remove(path_, ec);
    }
}

NamespaceRecord::NamespaceRecord(NamespaceRecord &&other) noexcept
    : path_(std::move(other.path_)),
      netns_(std::move(other.netns_)),
      host_link_(std::move(other.host_link_)) {
    other.path_.clear();
}

std::vector<std::string> sweep_records(const std::filesystem::path &folder, bool dry_run) {
    std::vector<std::string> removed;
    std::error_code ec;
    for (const auto &entry : std::filesystem::directory_iterator(folder, ec)) {
        pid_t pid = 0;
        unsigned long long start_time = 0;
        std::string netns;
        std::string host_link;
        std::ifstream(entry.path()) >> pid >> start_time >> netns >> host_link;
        if (pid > 0 && process_start_time(pid) == start_time) {
            continue;  // its host is still running and will clean up itself
        }
        // Only names this tool makes: a damaged record must not delete someone else's.
        if (is_our_name(netns)) {
            if (is_our_name(host_link) && link_exists(host_link)) {
                if (!dry_run) {
                    delete_link(host_link);
                }
                removed.push_back("link " + host_link);
            }
            if (namespace_exists(netns)) {
                if (!dry_run) {
                    delete_namespace(netns);
                }
                removed.push_back("network namespace " + netns);
            }
        }
        if (!dry_run) {
            std::filesystem::remove(entry.path(), ec);
        }
    }
    return removed;
}

std::vector<std::string> sweep_orphans(bool dry_run) {
    std::vector<std::string> removed;
    if (::geteuid() != 0) {
        return removed;
    }
    std::error_code ec;
    for (const auto &entry : std::filesystem::directory_iterator("/run/netns", ec)) {
        const std::string netns = entry.path().filename().string();
        const NameParts parts = parts_of(netns);
        if (parts.pid <= 0 || ::kill(static_cast<pid_t>(parts.pid), 0) == 0 || errno != ESRCH) {
            continue;
        }
        if (link_exists(parts.host_link)) {
            if (!dry_run) {
                delete_link(parts.host_link);
            }
            removed.push_back("link " + parts.host_link + " (host " + std::to_string(parts.pid) +
                              " is gone)");
        }
        if (!dry_run) {
            delete_namespace(netns);
        }
        removed.push_back("network namespace " + netns + " (host " + std::to_string(parts.pid) +
                          " is gone, its record with it)");
    }
    return removed;
}

}  // namespace sbx::network
