// Names of the filesystem modes.
#include "filesystem_mode.hpp"

#include <sys/stat.h>

#include "json_fields.hpp"

namespace sbx::support {

const char *filesystem_name(FilesystemMode mode) {
    switch (mode) {
        case FilesystemMode::kReadonly:
            return "readonly";
        case FilesystemMode::kMinimal:
            return "minimal";
        default:
            return "host";
    }
}

FilesystemMode read_filesystem_mode(const std::string &name, const std::string &where) {
    if (name == "readonly") {
        return FilesystemMode::kReadonly;
    }
    if (name == "minimal") {
        return FilesystemMode::kMinimal;
    }
    if (name != "host") {
        invalid(where, "must be \"readonly\", \"minimal\" or \"host\", got \"" + name + "\"");
    }
    return FilesystemMode::kHost;
}

std::vector<BindPath> read_binds(const std::vector<std::string> &entries,
                                 const std::string &where) {
    if (entries.size() > kMaxBinds) {
        invalid(where, "lists " + std::to_string(entries.size()) + " paths; at most " +
                           std::to_string(kMaxBinds) + " are allowed");
    }
    std::vector<BindPath> binds;
    for (const std::string &entry : entries) {
        BindPath bind;
        bind.path = entry;
        const std::string suffix = ":rw";
        if (entry.size() > suffix.size() &&
            entry.compare(entry.size() - suffix.size(), suffix.size(), suffix) == 0) {
            bind.path = entry.substr(0, entry.size() - suffix.size());
            bind.writable = true;
        }
        struct stat info {};
        if (bind.path.empty() || bind.path.front() != '/' || bind.path == "/") {
            invalid(where,
                    "'" + entry + "' is not an absolute path below /, e.g. /usr or /srv/data:rw");
        }
        if (::stat(bind.path.c_str(), &info) != 0) {
            invalid(where, "'" + bind.path + "' does not exist on this machine");
        }
        binds.push_back(bind);
    }
    return binds;
}

}  // namespace sbx::support
