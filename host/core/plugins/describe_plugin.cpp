// Learning what a plugin file is without running any of its code in the host: a child
// sbx-plugin-host loads it and sends its description back.
#include <nlohmann/json.hpp>

#include "plugins/plugin.hpp"
#include "plugins/plugin_process.hpp"
#include "util/shell_word.hpp"

namespace sbx::plugins {

std::shared_ptr<Plugin> describe_plugin(const std::filesystem::path &path,
                                        const CallPolicy &policy) {
    PluginProcess child(path, PluginProcess::Mode::describe);
    const auto span = deadline_of(policy, std::nullopt);
    const auto deadline = span.count() > 0 ? PluginProcess::Clock::now() + span
                                           : PluginProcess::Clock::time_point::max();
    const auto received = child.receive(deadline);
    using Kind = PluginProcess::Received::Kind;
    if (received.kind == Kind::frame && received.frame.type == wire::FrameType::refused) {
        throw PluginError(received.frame.payload);
    }
    if (received.kind == Kind::cancelled) {
        throw PluginCallError(SBX_CANCELLED,
                              path.string() + ": loading it was stopped by a signal");
    }
    if (received.kind != Kind::frame || received.frame.type != wire::FrameType::hello) {
        const std::string what =
            received.kind == Kind::timed_out ? "did not finish loading in time" : received.why;
        // Its constructors or init() ran in a child; the host is unharmed. The next step
        // is a debugger on that child's code, not another host command that loads it too.
        throw PluginError(path.string() + ": " + what +
                          " while loading, before any call: its static constructors or "
                          "init() failed (they ran in a separate process); reproduce it "
                          "under a debugger: gdb --args " +
                          shell_quote(plugin_host_program().string()) + " --describe " +
                          shell_quote(path.string()) + " 3>/dev/null");
    }
    nlohmann::json description;
    try {
        description = nlohmann::json::parse(received.frame.payload);
    } catch (const nlohmann::json::exception &e) {
        throw PluginError(path.string() +
                          ": the plugin host sent a description that is not "
                          "JSON: " +
                          e.what());
    }
    std::shared_ptr<Plugin> plugin(new Plugin());
    plugin->path_ = path;
    plugin->descriptor_ = descriptor_from_description(path, description, plugin->abi_);
    plugin->policy_ = policy;
    plugin->policy_.isolation = Isolation::process;
    return plugin;
}

}  // namespace sbx::plugins
