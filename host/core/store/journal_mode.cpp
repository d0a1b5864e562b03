// The filesystem is told by its type in /proc/self/mountinfo, the mount that holds the
// folder (the longest mount point that prefixes it). statfs(2) cannot tell: a 9p mount
// reports the f_type of the server's filesystem (ext4 for a QEMU guest's share).
#include "store/journal_mode.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <sstream>
#include <string_view>

#include "util/number_parse.hpp"

namespace sbx::store {
namespace {

constexpr std::array<std::string_view, 19> kNetworkTypes{
    "nfs",      "nfs4",  "9p",     "cifs",     "smb3",  "smbfs", "ceph",
    "lustre",   "gpfs",  "beegfs", "afs",      "ocfs2", "gfs2",  "glusterfs",
    "virtiofs", "panfs", "pvfs2",  "orangefs", "wekafs"};

// mountinfo escapes space, tab, newline and backslash as \ooo.
std::string unescaped(const std::string &field) {
    std::string text;
    for (size_t i = 0; i < field.size(); ++i) {
        const std::string octal = i + 3 < field.size() ? field.substr(i + 1, 3) : "";
        const auto code = util::parse_octal(octal);
        if (field[i] == '\\' && code) {
            text += static_cast<char>(*code);
            i += 3;
            continue;
        }
        text += field[i];
    }
    return text;
}

bool holds(const std::string &mount_point, const std::string &path) {
    if (mount_point == "/") {
        return true;
    }
    return path.compare(0, mount_point.size(), mount_point) == 0 &&
           (path.size() == mount_point.size() || path[mount_point.size()] == '/');
}

}  // namespace

std::string mount_type(const std::string &path, std::istream &mounts) {
    std::string best_point;
    std::string best_type;
    for (std::string line; std::getline(mounts, line);) {
        // id parent major:minor root mount-point options [optional...] - type source ...
        std::istringstream fields(line);
        std::string id;
        std::string parent;
        std::string device;
        std::string root;
        std::string point;
        fields >> id >> parent >> device >> root >> point;
        std::string word;
        while (fields >> word && word != "-") {
        }
        std::string type;
        fields >> type;
        point = unescaped(point);
        // A later mount on the same point hides the earlier one: >= keeps the last.
        if (!type.empty() && holds(point, path) && point.size() >= best_point.size()) {
            best_point = point;
            best_type = type;
        }
    }
    return best_type;
}

bool network_type(const std::string &type) {
    // sshfs, s3fs, gcsfuse: user space, most often remote; but not the local ones that
    // stand in for a kernel filesystem (a rootless container's overlay root, lxcfs).
    if (type.rfind("fuse.", 0) == 0) {
        return type != "fuse.fuse-overlayfs" && type != "fuse.lxcfs";
    }
    return std::find(kNetworkTypes.begin(), kNetworkTypes.end(), type) != kNetworkTypes.end();
}

std::string network_filesystem(const std::filesystem::path &folder) {
    std::error_code error;
    const auto path = std::filesystem::weakly_canonical(std::filesystem::absolute(folder), error);
    if (error) {
        return "";
    }
    std::ifstream mounts("/proc/self/mountinfo");
    std::string type = mount_type(path.string(), mounts);
    return network_type(type) ? type : "";
}

const char *journal_mode_for(const std::filesystem::path &folder) {
    return network_filesystem(folder).empty() ? "WAL" : "DELETE";
}

}  // namespace sbx::store
