// The servers a long command starts beside its matrix (dashboard/live_servers): which
// commands run long, and their --dashboard-port and --metrics-port options.
#pragma once

#include <string>
#include <vector>

#include "dashboard/live_servers.hpp"

namespace sbx::cli {

// The commands that take --dashboard-port and --metrics-port.
bool runs_long(const std::string &command);

using dashboard::parse_port;

class LiveServers : public dashboard::LiveServers {
  public:
    // Takes --dashboard-port/--metrics-port (and their =forms) out of `args` and starts
    // what they and the environment ask for. Throws InputError for a bad or busy port.
    LiveServers(std::vector<std::string> &args, const std::string &data_dir);
};

}  // namespace sbx::cli
