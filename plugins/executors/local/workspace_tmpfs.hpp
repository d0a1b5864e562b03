// WorkspaceTmpfs: a tmpfs of exactly limits.disk_bytes that the target sees as its workspace.
// Made detached in the host (fsopen/fsmount: it is in no mount table) and attached over the
// workspace path by the child inside the run's own mount namespace, so the host never sees it
// mounted and nothing outlives the run, a SIGKILLed host included.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <ctime>
#include <map>
#include <memory>
#include <string>

#include <sbx/unique_fd.hpp>

namespace sbx::local {

class WorkspaceTmpfs {
  public:
    // A tmpfs of `size_bytes` (the kernel rounds up to whole pages), or nullptr with `why`
    // set: EPERM without CAP_SYS_ADMIN, ENOSYS before Linux 5.2.
    static std::unique_ptr<WorkspaceTmpfs> create(std::uint64_t size_bytes, std::string &why);

    // The detached mount, which the child attaches with move_mount().
    [[nodiscard]] int mount_fd() const { return mount_.get(); }
    // The tmpfs's root folder, open for reading and writing entries in it.
    [[nodiscard]] int root_fd() const { return root_.get(); }

    // Copies the tree of `folder` in (regular files, folders and symlinks with their modes
    // and mtimes; other kinds are skipped) and the folder's own mode, remembering each entry
    // so copy_out writes back only what the run changed. Throws sbx::Error when it does not
    // fit. Copies of a run that share a folder take turns (a lock per folder).
    void copy_in(const std::string &folder);
    // Writes back into `folder` what the run created or changed, and removes from it what
    // the run removed of what copy_in brought. Throws sbx::Error on a failed write.
    void copy_out(const std::string &folder) const;

    [[nodiscard]] std::uint64_t used_bytes() const;
    // No free block left: the target met ENOSPC, or was about to.
    [[nodiscard]] bool full() const;

    // What copy_in saw of each entry it wrote, to tell later which ones the run touched.
    struct Stamp {
        mode_t mode = 0;
        ino_t inode = 0;
        timespec ctime{};
    };

  private:
    WorkspaceTmpfs(UniqueFd mount, UniqueFd root)
        : mount_(std::move(mount)), root_(std::move(root)) {}
    UniqueFd mount_;
    UniqueFd root_;
    std::map<std::string, Stamp> copied_in_;  // relative path -> stamp of the tmpfs copy
};

}  // namespace sbx::local
