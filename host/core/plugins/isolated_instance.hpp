// An instance served by its own child sbx-plugin-host: the plugin's code never runs in the
// host, so a crash, a hang past the call's deadline or garbage on the channel is an error
// that names the plugin, its file and the call ("plugin lintrend (/x/lintrend.so) crashed
// with SIGSEGV in predict"), and the next call starts a fresh child, up to a limit.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "plugins/plugin.hpp"
#include "plugins/plugin_process.hpp"

namespace sbx::plugins {

class IsolatedInstance final : public Instance {
  public:
    // Starts the child and creates the instance in it from `config` (JSON text, already
    // validated). A refusal of the configuration is a PluginError (exit 2).
    IsolatedInstance(std::shared_ptr<const Plugin> plugin, std::string config);

    std::string call(PluginCall which, const std::string &request) override;

  private:
    void start();
    // The deadline of one call: the policy's; an executor's run gets the run's own
    // timeout on top (none when the run has none).
    [[nodiscard]] PluginProcess::Clock::time_point deadline_for(PluginCall which,
                                                                const std::string &request) const;
    // Ends the child after a failure in `doing` (of `which`; none: loading or create) and
    // throws what the policy says.
    [[noreturn]] void fail(const std::string &doing, const PluginProcess::Received &received,
                           std::optional<PluginCall> which = std::nullopt);
    // True when the child's peak memory came close to its limit (it ran out).
    [[nodiscard]] bool near_memory_limit() const;
    // "ran out of memory at its limit of 1024 MiB (plugin_host.memory_mb); it was killed"
    [[nodiscard]] std::string memory_text() const;
    [[nodiscard]] std::string who() const;

    std::string config_;
    std::unique_ptr<PluginProcess> process_;
    int failures_ = 0;
};

std::unique_ptr<Instance> make_isolated_instance(std::shared_ptr<const Plugin> plugin,
                                                 std::string config);

}  // namespace sbx::plugins
