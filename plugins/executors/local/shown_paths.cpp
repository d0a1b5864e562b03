// Which host paths a run's view must show at their own place (shown_paths.hpp).
#include "shown_paths.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>

#include "support/json_fields.hpp"

namespace sbx::local {
namespace {

using support::BindPath;

// The folders `readonly` replaces with private, empty ones.
constexpr const char *kHiddenRoots[] = {"/tmp", "/dev/shm"};

bool is_inside(const std::string &path, const std::string &folder) {
    return path.size() > folder.size() && path.compare(0, folder.size(), folder) == 0 &&
           (folder == "/" || path[folder.size()] == '/');
}

bool is_hidden(const std::string &path) {
    return std::any_of(std::begin(kHiddenRoots), std::end(kHiddenRoots),
                       [&](const char *root) { return is_inside(path, root); });
}

bool is_hidden_root(const std::string &path) {
    return std::any_of(std::begin(kHiddenRoots), std::end(kHiddenRoots),
                       [&](const char *root) { return path == root; });
}

// An existing absolute path as the target needs it: a folder as it is, a file with the
// folder it sits in (a script's modules, a program's data beside it), except in /tmp or
// /dev/shm themselves, which would show every other user's files; "" for anything else.
std::string needed_place(const std::string &word) {
    if (word.size() < 2 || word.front() != '/') {
        return "";
    }
    std::string path = std::filesystem::path(word).lexically_normal().string();
    while (path.size() > 1 && path.back() == '/') {
        path.pop_back();  // "/tmp/" is /tmp itself
    }
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0 || is_hidden_root(path)) {
        return "";
    }
    if (S_ISDIR(info.st_mode)) {
        return path;
    }
    const std::string folder = std::filesystem::path(path).parent_path().string();
    return is_hidden_root(folder) ? path : folder;
}

// LD_PRELOAD's entries: ld.so separates them with colons and spaces.
std::vector<std::string> preload_entries(const std::vector<std::string> &environment) {
    std::vector<std::string> entries;
    for (const std::string &variable : environment) {
        if (variable.rfind("LD_PRELOAD=", 0) != 0) {
            continue;
        }
        std::string entry;
        for (const char c : variable.substr(sizeof("LD_PRELOAD=") - 1) + ":") {
            if (c == ':' || c == ' ') {
                if (!entry.empty()) {
                    entries.push_back(entry);
                }
                entry.clear();
            } else {
                entry += c;
            }
        }
    }
    return entries;
}

// Sorted by path (a parent before what lies inside it), each kept once, and nothing inside
// a kept folder unless it must be writable where that folder is not.
std::vector<BindPath> without_overlaps(std::vector<BindPath> paths, const std::string &workspace) {
    std::sort(paths.begin(), paths.end(), [](const BindPath &a, const BindPath &b) {
        return a.path != b.path ? a.path < b.path : a.writable > b.writable;
    });
    std::vector<BindPath> kept;
    for (const BindPath &candidate : paths) {
        if (candidate.path == workspace || is_inside(candidate.path, workspace)) {
            continue;  // the workspace is attached as it is, writable
        }
        const bool covered = std::any_of(kept.begin(), kept.end(), [&](const BindPath &outer) {
            return (outer.path == candidate.path || is_inside(candidate.path, outer.path)) &&
                   (outer.writable || !candidate.writable);
        });
        if (!covered) {
            kept.push_back(candidate);
        }
    }
    return kept;
}

}  // namespace

std::vector<BindPath> shown_paths(const support::RunSpec &spec, const std::string &program,
                                  const std::vector<std::string> &environment,
                                  const std::string &workspace) {
    std::vector<BindPath> candidates;
    if (spec.filesystem == support::FilesystemMode::kMinimal) {
        candidates = spec.show;
    } else if (spec.filesystem == support::FilesystemMode::kReadonly) {
        for (BindPath entry : spec.show) {
            entry.path = std::filesystem::path(entry.path).lexically_normal().string();
            while (entry.path.size() > 1 && entry.path.back() == '/') {
                entry.path.pop_back();
            }
            if (!is_hidden_root(entry.path) && (entry.writable || is_hidden(entry.path))) {
                candidates.push_back(entry);
            }
        }
        std::vector<std::string> words(spec.argv.begin() + (spec.argv.empty() ? 0 : 1),
                                       spec.argv.end());
        words.push_back(program);
        for (const std::string &entry : preload_entries(environment)) {
            words.push_back(entry);
        }
        for (const std::string &word : words) {
            // An option's value too: --input=/tmp/x/data.json.
            const std::size_t equals = word.find('=');
            for (const std::string &named :
                 {word, equals == std::string::npos ? std::string() : word.substr(equals + 1)}) {
                const std::string place = needed_place(named);
                if (!place.empty() && is_hidden(place)) {
                    candidates.push_back(BindPath{place, false});
                }
            }
        }
    }
    // A path through a symbolic link (a `build` link to a build tree elsewhere in /tmp) works
    // only when where the link leads is shown too.
    const std::size_t named = candidates.size();
    for (std::size_t i = 0; i < named; ++i) {
        std::error_code error;
        const std::string real = std::filesystem::canonical(candidates[i].path, error).string();
        if (!error && real != candidates[i].path &&
            (candidates[i].writable || is_hidden(real) ||
             spec.filesystem == support::FilesystemMode::kMinimal)) {
            candidates.push_back(BindPath{real, candidates[i].writable});
        }
    }
    std::vector<BindPath> shown = without_overlaps(std::move(candidates), workspace);
    const std::size_t room = support::kMaxBinds - std::min(spec.binds.size(), support::kMaxBinds);
    if (shown.size() > room) {
        support::invalid("run spec", "the step needs " + std::to_string(shown.size()) +
                                         " separate host paths shown in its sandbox (" +
                                         shown[0].path + ", " + shown[1].path +
                                         ", ...), and at most " + std::to_string(room) +
                                         " fit; move the files it names into fewer folders");
    }
    return shown;
}

}  // namespace sbx::local
