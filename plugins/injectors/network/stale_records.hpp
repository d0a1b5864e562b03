// What a crashed host would leave behind, written down before it is made: one record file
// per namespace under <state_dir>/network/, so that sweep() can remove the namespace and its
// host-side link once the host that made them is gone.
#pragma once

#include <sbx/process_identity.hpp>

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace sbx::network {

// A record file, removed when the object goes out of scope if the namespace and link it
// names are gone by then (declare it before them, so it is destroyed after them).
class NamespaceRecord {
  public:
    NamespaceRecord() = default;
    // Writes <folder>/<netns> naming this process, the namespace and the host-side link
    // ("" when none). An empty folder records nothing (the request named no state_dir).
    NamespaceRecord(const std::filesystem::path &folder, const std::string &netns,
                    const std::string &host_link);
    ~NamespaceRecord();
    NamespaceRecord(NamespaceRecord &&other) noexcept;
    NamespaceRecord &operator=(NamespaceRecord &&) = delete;
    NamespaceRecord(const NamespaceRecord &) = delete;
    NamespaceRecord &operator=(const NamespaceRecord &) = delete;

    [[nodiscard]] const std::filesystem::path &path() const { return path_; }

  private:
    std::filesystem::path path_;
    std::string netns_;
    std::string host_link_;
};

// Removes the namespaces and links recorded under `folder` whose host process is gone, and
// their records; leaves those of live hosts. Returns one line per thing removed.
std::vector<std::string> sweep_records(const std::filesystem::path &folder, bool dry_run = false);

// Named namespaces (/run/netns/sbx-<pid>-<n>) whose host pid no process has, and their
// links, found by name alone: a record goes with its data dir (a deleted test folder, a data
// dir given once), the kernel objects stay. A pid some process has now is left alone, be it
// the host or not. Only the machine's root can have made them, and only it looks.
std::vector<std::string> sweep_orphans(bool dry_run = false);

}  // namespace sbx::network
