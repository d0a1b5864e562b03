// A container the executor created, owned: removed (and dropped from the active ids
// file) when the object goes, however the run ended; a removal that fails is counted.
#pragma once

#include <chrono>
#include <string>

#include "cleanup_tally.hpp"
#include "support/docker_engine/engine_api.hpp"

namespace sbx::docker {

class Container {
  public:
    // `tally` counts a failed removal (cleanup_failures); it must outlive the container.
    Container(EngineApi &api, std::string id, std::string name, std::string active_path,
              CleanupTally &tally);
    ~Container();
    Container(const Container &) = delete;
    Container &operator=(const Container &) = delete;

    [[nodiscard]] const std::string &id() const { return id_; }
    [[nodiscard]] const std::string &name() const { return name_; }
    [[nodiscard]] std::chrono::steady_clock::time_point created() const { return created_; }
    // Removal goes through `api` instead (the pool's reaper thread has its own client).
    void use_api(EngineApi &api) { api_ = &api; }

  private:
    EngineApi *api_;
    std::string id_;
    std::string name_;
    std::string active_path_;
    CleanupTally &tally_;
    std::chrono::steady_clock::time_point created_;
};

// A private folder (stdin files) for one container, removed with the object.
class ScopedFolder {
  public:
    // Makes <parent>/<host pid>-XXXXXX; throws sbx::Error naming `parent`.
    explicit ScopedFolder(const std::string &parent);
    ~ScopedFolder();
    ScopedFolder(const ScopedFolder &) = delete;
    ScopedFolder &operator=(const ScopedFolder &) = delete;
    [[nodiscard]] const std::string &path() const { return path_; }

  private:
    std::string path_;
};

// "sbx-<host pid>-<n>": unique per process, and tells a reader which host made it.
std::string next_container_name();

}  // namespace sbx::docker
