// `plugins call PATH --request FILE [--call NAME] [--plugin-config JSON]`: the host-less harness.
// Feeds one plugin file one request, without a run, in its own plugin host process, and
// prints the answer, checked against the answer contract of its kind (plugins/harness_call).
#pragma once

#include <string>
#include <vector>

namespace sbx::cli {

// `args` are the words after `plugins call`. Exit 0 with the answer on stdout; 2 when the
// arguments or the request are bad, the call fails or the answer breaks its contract.
int call_plugin(const std::vector<std::string> &args);

}  // namespace sbx::cli
