// Removal is best effort and never throws: a dead daemon must not turn a finished run
// into an exception; purge-stale finds what is left through the labels and the ids file.
#include "container.hpp"

#include <unistd.h>
#include <sbx/plugin.hpp>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "state_files.hpp"

namespace sbx::docker {

Container::Container(EngineApi &api, std::string id, std::string name, std::string active_path,
                     CleanupTally &tally)
    : api_(&api),
      id_(std::move(id)),
      name_(std::move(name)),
      active_path_(std::move(active_path)),
      tally_(tally),
      created_(std::chrono::steady_clock::now()) {}

Container::~Container() {
    try {
        api_->remove_container(id_);
        unregister_active(active_path_, id_);
    } catch (const std::exception &e) {
        tally_.add(kCleanupFailures);
        host::log(SBX_LOG_WARN, "container " + name_ + " (" + id_.substr(0, 12) +
                                    ") was not removed: " + e.what() +
                                    "; `sandbox-runner purge-stale` removes it once this host "
                                    "has exited");
    }
}

ScopedFolder::ScopedFolder(const std::string &relative_or_absolute) {
    // Absolute: the folder is bind-mounted, and the engine reads a relative source as the
    // name of a volume (a relative --data-dir gives a relative state_dir).
    std::error_code ignored;
    const std::string parent =
        std::filesystem::absolute(relative_or_absolute, ignored).lexically_normal().string();
    std::filesystem::create_directories(parent, ignored);
    // The host pid leads the name, so sweep() can tell a dead host's folders.
    std::string pattern = parent + "/" + std::to_string(::getpid()) + "-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) {
        throw Error(SBX_ERROR, "cannot create a folder in " + parent + ": " + std::strerror(errno));
    }
    path_ = pattern;
}

ScopedFolder::~ScopedFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

std::string next_container_name() {
    static std::atomic<unsigned long> counter{0};
    return "sbx-" + std::to_string(::getpid()) + "-" + std::to_string(++counter);
}

}  // namespace sbx::docker
