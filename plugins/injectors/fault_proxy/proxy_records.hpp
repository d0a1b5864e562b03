// Record files under <state_dir>/fault_proxy/: one per running proxy, naming the host
// process (pid and start time) and the addresses, so sweep() can tell a crashed host's
// leftovers from a live host's proxies. The proxy is a thread of the host, so a SIGKILLed
// host leaves no process and no socket behind, only its records.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

#include <sbx/process_identity.hpp>

namespace sbx::fault_proxy {

// A record file, removed when the object goes out of scope.
class ProxyRecord {
  public:
    ProxyRecord() = default;
    // Writes <folder>/proxy-<pid>-<n>: "<pid> <start time> <name> <listen> <target>".
    // An empty folder records nothing. Throws sbx::Error when the file cannot be written.
    ProxyRecord(const std::filesystem::path &folder, const std::string &name,
                const std::string &listen, const std::string &target);
    ~ProxyRecord();
    ProxyRecord(ProxyRecord &&other) noexcept : path_(std::move(other.path_)) {
        other.path_.clear();
    }
    ProxyRecord &operator=(ProxyRecord &&other) noexcept;
    ProxyRecord(const ProxyRecord &) = delete;
    ProxyRecord &operator=(const ProxyRecord &) = delete;

    [[nodiscard]] const std::filesystem::path &path() const { return path_; }

  private:
    std::filesystem::path path_;
};

// Removes the records under `folder` whose host process is gone (pid and start time: a
// reused pid does not count as alive); leaves live hosts' records. One line per removal.
std::vector<std::string> sweep_records(const std::filesystem::path &folder);

}  // namespace sbx::fault_proxy
