// The plugin host's loop: one plugin, one instance, calls in order.
#include "plugin_host/serve.hpp"

#include <cerrno>

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

// Set by answer(): the call ran out of memory.
bool out_of_memory = false;

std::string answer(plugins::Instance &instance, const std::string &payload) {
    const auto which = plugins::call_from_byte(static_cast<uint8_t>(payload[0]));
    if (!which) {
        return plugins::wire::encode_answer(SBX_INVALID, "", "unknown call");
    }
    // Rationale: under the memory limit (RLIMIT_DATA) a leak ends in malloc failing with
    // ENOMEM, and the plugin then says no (std::bad_alloc) or answers oddly; errno is the one
    // witness that says the limit was why, so the host can name it.
    // Only a failed call counts: a plugin may meet ENOMEM, cope and answer.
    errno = 0;
    try {
        return plugins::wire::encode_answer(SBX_OK, instance.call(*which, payload.substr(1)), "");
    } catch (const plugins::PluginCallError &e) {
        out_of_memory = errno == ENOMEM;
        return plugins::wire::encode_answer(e.status(), "", e.what());
    } catch (const std::exception &e) {
        out_of_memory = errno == ENOMEM;
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
            out_of_memory = false;
            const std::string answered = answer(*instance, frame.payload);
            if (out_of_memory && !send(channel, FrameType::out_of_memory, "")) {
                break;
            }
            if (!send(channel, FrameType::answer, answered)) {
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
