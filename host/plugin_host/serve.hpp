// What sbx-plugin-host does once started: load the plugin, describe it, and (serving)
// create one instance and answer calls until the host closes the channel.
#pragma once

namespace sbx::plugin_host {

// Exit code of the plugin host: 0 after an orderly end (a refusal is an orderly end: it was
// sent to the host), 2 when the host broke the protocol.
int serve(int channel, const char *plugin_path, bool describe_only);

}  // namespace sbx::plugin_host
