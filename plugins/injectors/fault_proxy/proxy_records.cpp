// Record files: "<host pid> <host start time> <upstream name> <listen> <target>".
#include "proxy_records.hpp"

#include <sbx/plugin.hpp>

#include <unistd.h>

#include <atomic>
#include <fstream>
#include <sstream>
#include <utility>

namespace sbx::fault_proxy {

ProxyRecord::ProxyRecord(const std::filesystem::path &folder, const std::string &name,
                         const std::string &listen, const std::string &target) {
    if (folder.empty()) {
        return;
    }
    static std::atomic<unsigned long long> counter{0};
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    const auto path =
        folder / ("proxy-" + std::to_string(::getpid()) + "-" + std::to_string(++counter));
    std::ofstream out(path);
    out << ::getpid() << ' ' << process_start_time(::getpid()) << ' ' << name << ' ' << listen
        << ' ' << target << '\n';
    out.close();
    if (!out) {
        throw Error(SBX_ERROR, "cannot write the record " + path.string() +
                                   " that lets sweep clean up after a crash; check that the "
                                   "state folder is writable");
    }
    path_ = path;
}

ProxyRecord::~ProxyRecord() {
    if (!path_.empty()) {
        std::error_code ec;
        std::filesystem::remove(path_, ec);
    }
}

ProxyRecord &ProxyRecord::operator=(ProxyRecord &&other) noexcept {
    if (this != &other) {
        if (!path_.empty()) {
            std::error_code ec;
            std::filesystem::remove(path_, ec);
        }
        path_ = std::move(other.path_);
        other.path_.clear();
    }
    return *this;
}

std::vector<std::string> sweep_records(const std::filesystem::path &folder) {
    std::vector<std::string> removed;
    std::error_code ec;
    for (const auto &entry : std::filesystem::directory_iterator(folder, ec)) {
        if (entry.path().filename().string().rfind("proxy-", 0) != 0) {
            continue;  // not ours
        }
        pid_t pid = 0;
        unsigned long long start_time = 0;
        std::string name;
        std::string listen;
        std::string target;
        std::ifstream(entry.path()) >> pid >> start_time >> name >> listen >> target;
        if (pid > 0 && process_start_time(pid) == start_time) {
            continue;  // its host is still running and removes its own
        }
        std::error_code remove_error;
        if (std::filesystem::remove(entry.path(), remove_error)) {
            std::string line = "fault proxy record of upstream " + name;
            line.append(" (").append(listen).append(" -> ").append(target);
            line.append(", host pid ").append(std::to_string(pid)).append(" gone)");
            removed.push_back(std::move(line));
        }
    }
    return removed;
}

}  // namespace sbx::fault_proxy
