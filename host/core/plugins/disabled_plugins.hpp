// The metrics collectors and predictors a command has disabled: a plugin whose call failed
// (a crash, a hang, garbage, its memory limit, a bad answer, an error status) is not called
// again, and the command goes on without its numbers. Shared by every worker of the command;
// what each failure was is the session's (store/plugin_failures.hpp).
#pragma once

#include <mutex>
#include <string>
#include <vector>

namespace sbx::plugins {

class DisabledPlugins {
  public:
    [[nodiscard]] bool is_disabled(const std::string &id) const;
    // Disables `id`; true the first time (the caller then warns and records it), false when
    // another worker disabled it already.
    bool disable(const std::string &id);

  private:
    mutable std::mutex mutex_;
    std::vector<std::string> ids_;
};

}  // namespace sbx::plugins
