// The disk behind a folder, as the blkio/io controllers name it ("MAJ:MIN" of the whole
// disk), for DISK_IO_THROTTLE; or why there is none (tmpfs, overlay, network filesystems).
#pragma once

#include <optional>
#include <string>

namespace sbx::local {

// "MAJ:MIN" of the whole disk holding `folder` (a partition maps to its disk: the
// throttles only take whole disks). nullopt with `why` set when no block device backs it.
std::optional<std::string> whole_disk_of(const std::string &folder, std::string &why);

}  // namespace sbx::local
