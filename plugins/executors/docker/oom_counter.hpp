// The OOM-kill count of a running container's memory cgroup. Rationale: the engine sets
// State.OOMKilled only when the container's main process dies of it, so an exec killed by
// the OOM killer in a pooled container leaves no trace in the API; the cgroup's own
// counter (v1 memory.oom_control, v2 memory.events: "oom_kill N") does. Needs the engine
// on this machine (a local socket), which is how the pool is used.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace sbx::docker {

class OomCounter {
  public:
    // Finds the memory cgroup of process `pid` (the container's init, State.Pid).
    // Unusable (count() is nullopt) when it cannot be found.
    explicit OomCounter(long pid);
    [[nodiscard]] std::optional<std::uint64_t> count() const;
    [[nodiscard]] const std::string &file() const { return file_; }

  private:
    std::string file_;
};

}  // namespace sbx::docker
