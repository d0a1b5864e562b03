// Mapping a folder to its whole disk through stat() and /sys/dev/block.
#include "block_device.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>

#include "support/cgroup_files.hpp"
#include "support/sys_error.hpp"

namespace sbx::local {

std::optional<std::string> whole_disk_of(const std::string &folder, std::string &why) {
    struct stat info {};
    if (::stat(folder.c_str(), &info) != 0) {
        why = "cannot stat " + folder + ": " + support::errno_text(errno);
        return std::nullopt;
    }
    const std::string device =
        std::to_string(major(info.st_dev)) + ":" + std::to_string(minor(info.st_dev));
    const std::string sys = "/sys/dev/block/" + device;
    // Major 0 is the kernel's "anonymous" devices: tmpfs, overlayfs, NFS, FUSE, btrfs...
    if (major(info.st_dev) == 0 || ::access(sys.c_str(), F_OK) != 0) {
        why = "no block device backs " + folder + " (device " + device + ")";
        return std::nullopt;
    }
    if (::access((sys + "/partition").c_str(), F_OK) != 0) {
        return device;
    }
    const auto disk = support::read_kernel_file(sys + "/../dev");  // the partition's disk
    if (!disk || disk->empty()) {
        why = "cannot find the disk of partition " + device;
        return std::nullopt;
    }
    return disk->substr(0, disk->find('\n'));
}

}  // namespace sbx::local
