// Building the target's argv/envp and finding its program in the target's PATH. Done in the
// parent: the clone()d child shares our memory and may only make raw system calls.
#include "target_command.hpp"
#include "support/environment_variable.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <utility>

extern char **environ;  // NOLINT: POSIX global

namespace sbx::local {
namespace {

constexpr const char kDefaultPath[] = "/usr/local/bin:/usr/bin:/bin";

bool is_executable_file(const std::string &path, int &error) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) {
        return false;
    }
    if (!S_ISREG(info.st_mode) || ::access(path.c_str(), X_OK) != 0) {
        error = EACCES;  // execvp reports EACCES when only non-executable matches exist
        return false;
    }
    return true;
}

}  // namespace

CStringArray::CStringArray(std::vector<std::string> strings) : strings_(std::move(strings)) {
    pointers_.reserve(strings_.size() + 1);
    for (std::string &text : strings_) {
        pointers_.push_back(text.data());
    }
    pointers_.push_back(nullptr);
}

std::vector<std::string> target_environment(const support::RunSpec &spec, bool inherit_env,
                                            const std::string &workspace) {
    // Ordered by name so the target sees a stable environment from run to run.
    std::map<std::string, std::string> variables;
    if (inherit_env) {
        for (char **entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
            const std::string text(*entry);
            const std::size_t equals = text.find('=');
            if (equals != std::string::npos && equals > 0) {
                variables[text.substr(0, equals)] = text.substr(equals + 1);
            }
        }
    } else {
        const char *host_path = support::environment_variable("PATH");
        variables["PATH"] = host_path != nullptr ? host_path : kDefaultPath;
        variables["HOME"] = workspace;
        variables["TMPDIR"] = workspace;
        variables["LANG"] = "C.UTF-8";
    }
    for (const auto &[name, value] : spec.env) {
        variables[name] = value;
    }
    std::vector<std::string> result;
    result.reserve(variables.size());
    for (const auto &[name, value] : variables) {
        std::string entry = name;
        entry += '=';
        entry += value;
        result.push_back(std::move(entry));
    }
    return result;
}

ProgramLookup find_program(const std::string &name, const std::vector<std::string> &environment,
                           const std::string &workspace) {
    ProgramLookup lookup;
    if (name.find('/') != std::string::npos) {
        lookup.path = name;
        return lookup;
    }
    lookup.searched = kDefaultPath;
    for (const std::string &entry : environment) {
        if (entry.compare(0, 5, "PATH=") == 0) {
            lookup.searched = entry.substr(5);
        }
    }
    lookup.error = ENOENT;
    std::size_t start = 0;
    while (start <= lookup.searched.size()) {
        const std::size_t end = std::min(lookup.searched.find(':', start), lookup.searched.size());
        std::string folder = lookup.searched.substr(start, end - start);
        start = end + 1;
        if (folder.empty()) {
            folder = ".";  // POSIX: an empty PATH entry is the current folder
        }
        if (folder.front() != '/') {
            folder.insert(0, workspace + "/");
        }
        std::string candidate = std::move(folder);
        candidate += '/';
        candidate += name;
        if (is_executable_file(candidate, lookup.error)) {
            lookup.path = candidate;
            lookup.error = 0;
            return lookup;
        }
    }
    return lookup;
}

}  // namespace sbx::local
