// An instance served by its own child sbx-plugin-host: the plugin's code never runs in the
// host, so a crash, a hang past the call's deadline or garbage on the channel is an error
// that names the plugin, its file and the call ("plugin lintrend (/x/lintrend.so) crashed
// with SIGSEGV in predict"), and the next call starts a fresh child, up to a limit.
#pragma once

#include <memory>
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
    // Ends the child after a failure in `doing` and throws what the policy says.
    [[noreturn]] void fail(const std::string &doing, const PluginProcess::Received &received);
    [[nodiscard]] std::string who() const;

    std::string config_;
    std::unique_ptr<PluginProcess> process_;
    int failures_ = 0;
};

std::unique_ptr<Instance> make_isolated_instance(std::shared_ptr<const Plugin> plugin,
                                                 std::string config);

}  // namespace sbx::plugins
