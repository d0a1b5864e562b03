// The plugin host's end of the channel: frames written whole under one lock, because the
// plugin's own threads may log while the main thread answers.
#pragma once

#include <string>

#include "plugins/plugin_wire.hpp"

namespace sbx::plugin_host {

// Sends a frame on `fd`; false when the host is gone.
bool send(int fd, plugins::wire::FrameType type, const std::string &payload);

// Routes spdlog (where the plugin's sbx_host.log lands) into log frames on `fd`, at `level`
// (spdlog's numbering) and above.
void forward_logs_to(int fd, int level);

}  // namespace sbx::plugin_host
