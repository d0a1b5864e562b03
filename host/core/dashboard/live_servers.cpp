// Starting the dashboard and the exporter a long command asked for.
#include "dashboard/live_servers.hpp"

#include <cstdlib>
#include <optional>

#include "dashboard/live_counters.hpp"
#include "util/errors.hpp"
#include "util/number_parse.hpp"

namespace sbx::dashboard {
namespace {

std::optional<std::string> environment(const char *name) {
    const char *value = std::getenv(name);
    if (value == nullptr || *value == '\0') {
        return std::nullopt;
    }
    return std::string(value);
}

}  // namespace

int parse_port(const std::string &text, const std::string &origin) {
    const auto value = util::parse_int64(text);
    if (!value || *value < 1 || *value > 65535) {
        throw InputError(origin + " '" + text + "' is not a port; give a number from 1 to 65535");
    }
    return static_cast<int>(*value);
}

LiveServers::LiveServers(const std::string &data_dir, const LivePorts &ports) {
    struct Wanted {
        std::optional<std::string> option;
        const char *option_name;
        std::vector<const char *> variables;
        Routes routes;
    };
    const std::vector<Wanted> wanted{
        {ports.dashboard, "--dashboard-port", {"AUTO_DASHBOARD_PORT"}, Routes::dashboard},
        {ports.metrics,
         "--metrics-port",
         {"METRICS_PORT", "SYNERGY_METRICS_PORT"},
         Routes::exporter}};
    for (const auto &want : wanted) {
        std::vector<std::pair<std::string, std::string>> given;  // {text, origin}
        if (want.option) {
            given.emplace_back(*want.option, want.option_name);
        } else {
            // The variables are aliases: the first one set is the port.
            for (const char *variable : want.variables) {
                if (const auto value = environment(variable)) {
                    given.emplace_back(*value, variable);
                    break;
                }
            }
        }
        for (const auto &[text, origin] : given) {
            // 0: any free port, printed in the log line that says where it listens.
            const int port = text == "0" ? 0 : parse_port(text, origin);
            servers_.push_back(
                std::make_unique<WebServer>(data_dir, "127.0.0.1", port, want.routes, origin));
        }
    }
    if (!servers_.empty()) {
        enable_live();
    }
}

}  // namespace sbx::dashboard
