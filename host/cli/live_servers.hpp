// The servers a long command starts beside its matrix: the dashboard (--dashboard-port P or
// AUTO_DASHBOARD_PORT) and the Prometheus exporter (--metrics-port P, METRICS_PORT or
// SYNERGY_METRICS_PORT), on 127.0.0.1, for as long as the command runs.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "dashboard/web_server.hpp"

namespace sbx::cli {

// The commands that take --dashboard-port and --metrics-port.
bool runs_long(const std::string &command);

// A port from an option or a variable: 1..65535, else InputError naming `origin`.
int parse_port(const std::string &text, const std::string &origin);

class LiveServers {
  public:
    // Takes --dashboard-port/--metrics-port (and their =forms) out of `args` and starts
    // what they and the environment ask for. Throws InputError for a bad or busy port.
    LiveServers(std::vector<std::string> &args, const std::string &data_dir);

  private:
    std::vector<std::unique_ptr<dashboard::WebServer>> servers_;
};

}  // namespace sbx::cli
