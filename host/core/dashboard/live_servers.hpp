// The servers a long command starts beside its matrix: the dashboard (--dashboard-port P or
// AUTO_DASHBOARD_PORT) and the Prometheus exporter (--metrics-port P, METRICS_PORT or
// SYNERGY_METRICS_PORT), on 127.0.0.1, for as long as the command runs.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dashboard/web_server.hpp"

namespace sbx::dashboard {

// A port from an option or a variable: 1..65535, else InputError naming `origin`.
int parse_port(const std::string &text, const std::string &origin);

// The ports the command's options asked for, as given (nullopt: the option is absent and
// the variables decide).
struct LivePorts {
    std::optional<std::string> dashboard;  // --dashboard-port
    std::optional<std::string> metrics;    // --metrics-port
};

class LiveServers {
  public:
    // Starts what `ports` and the environment ask for ("0": any free port). Throws
    // InputError for a bad or busy port.
    LiveServers(const std::string &data_dir, const LivePorts &ports);

  private:
    std::vector<std::unique_ptr<WebServer>> servers_;
};

}  // namespace sbx::dashboard
