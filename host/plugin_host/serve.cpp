// The plugin host's loop: one plugin, one instance, calls in order.
#include "plugin_host/serve.hpp"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>

#include "plugin_host/channel.hpp"
#include "plugins/plugin.hpp"

namespace sbx::plugin_host {
namespace {

using plugins::wire::FrameType;

// Its init() ran; it gets its deinit() on the way out, as in the host.
void finish(const plugins::Plugin &plugin) {
    if (const auto *entry = plugin.entry(); entry != nullptr && entry->deinit != nullptr) {
        entry->deinit();
    }
}

std::unique_ptr<plugins::Instance> create(int channel, const plugins::Plugin &plugin,
                                          const std::string &config_text) {
    try {
        auto instance = plugin.create(nlohmann::json::parse(config_text));
        send(channel, FrameType::created, "");
        return instance;
    } catch (const std::exception &e) {
        send(channel, FrameType::refused, e.what());
        return nullptr;
    }
}

std::string answer(plugins::Instance &instance, const std::string &payload) {
    const auto which = plugins::call_from_byte(static_cast<uint8_t>(payload[0]));
    if (!which) {
        return plugins::wire::encode_answer(SBX_INVALID, "", "unknown call");
    }
    try {
        return plugins::wire::encode_answer(SBX_OK, instance.call(*which, payload.substr(1)), "");
    } catch (const plugins::PluginCallError &e) {
        return plugins::wire::encode_answer(e.status(), "", e.what());
    } catch (const std::exception &e) {
        return plugins::wire::encode_answer(SBX_ERROR, "", e.what());
    }
}

}  // namespace

int serve(int channel, const char *plugin_path, bool describe_only) {
    std::shared_ptr<plugins::Plugin> plugin;
    try {
        plugin = plugins::load_plugin(plugin_path);
    } catch (const std::exception &e) {
        send(channel, FrameType::refused, e.what());
        return 0;
    }
    send(channel, FrameType::hello, plugin->description().dump());
    if (describe_only) {
        finish(*plugin);
        return 0;
    }
    std::unique_ptr<plugins::Instance> instance;
    plugins::wire::Frame frame;
    std::string why;
    while (plugins::wire::read_frame(channel, frame, why) == plugins::wire::ReadResult::frame) {
        if (frame.type == FrameType::create && !instance) {
            instance = create(channel, *plugin, frame.payload);
            if (!instance) {
                break;
            }
        } else if (frame.type == FrameType::call && instance && !frame.payload.empty()) {
            if (!send(channel, FrameType::answer, answer(*instance, frame.payload))) {
                break;
            }
        } else {
            return 2;
        }
    }
    instance.reset();
    finish(*plugin);
    return 0;
}

}  // namespace sbx::plugin_host
