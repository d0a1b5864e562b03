#include "live_servers.hpp"

#include <cstdlib>
#include <optional>

#include "dashboard/live_counters.hpp"
#include "util/errors.hpp"
#include "util/number_parse.hpp"

namespace sbx::cli {
namespace {

// Removes `--name VALUE` / `--name=VALUE` from args; the last one given wins.
std::optional<std::string> take_option(std::vector<std::string> &args, const std::string &name) {
    std::optional<std::string> value;
    for (size_t i = 0; i < args.size();) {
        if (args[i] == name) {
            if (i + 1 >= args.size()) {
                throw InputError(name + " needs a port number");
            }
            value = args[i + 1];
            args.erase(args.begin() + static_cast<long>(i),
                       args.begin() + static_cast<long>(i) + 2);
        } else if (args[i].rfind(name + "=", 0) == 0) {
            value = args[i].substr(name.size() + 1);
            args.erase(args.begin() + static_cast<long>(i));
        } else {
            ++i;
        }
    }
    return value;
}

std::optional<std::string> environment(const char *name) {
    const char *value = std::getenv(name);
    if (value == nullptr || *value == '\0') {
        return std::nullopt;
    }
    return std::string(value);
}

}  // namespace

bool runs_long(const std::string &command) {
    for (const char *name : {"run", "run-scenarios", "simulate-temporal-trajectory",
                             "run-autonomous", "run-complete", "find-boundaries"}) {
        if (command == name) {
            return true;
        }
    }
    return false;
}

int parse_port(const std::string &text, const std::string &origin) {
    const auto value = util::parse_int64(text);
    if (!value || *value < 1 || *value > 65535) {
        throw InputError(origin + " '" + text + "' is not a port; give a number from 1 to 65535");
    }
    return static_cast<int>(*value);
}

LiveServers::LiveServers(std::vector<std::string> &args, const std::string &data_dir) {
    struct Wanted {
        std::optional<std::string> option;
        const char *option_name;
        std::vector<const char *> variables;
        dashboard::Routes routes;
    };
    const std::vector<Wanted> wanted{{take_option(args, "--dashboard-port"),
                                      "--dashboard-port",
                                      {"AUTO_DASHBOARD_PORT"},
                                      dashboard::Routes::dashboard},
                                     {take_option(args, "--metrics-port"),
                                      "--metrics-port",
                                      {"METRICS_PORT", "SYNERGY_METRICS_PORT"},
                                      dashboard::Routes::exporter}};
    for (const auto &want : wanted) {
        std::vector<std::pair<std::string, std::string>> ports;  // {text, origin}
        if (want.option) {
            ports.emplace_back(*want.option, want.option_name);
        } else {
            // The variables are aliases: the first one set is the port.
            for (const char *variable : want.variables) {
                if (const auto value = environment(variable)) {
                    ports.emplace_back(*value, variable);
                    break;
                }
            }
        }
        for (const auto &[text, origin] : ports) {
            // 0: any free port, printed in the log line that says where it listens.
            const int port = text == "0" ? 0 : parse_port(text, origin);
            servers_.push_back(std::make_unique<dashboard::WebServer>(data_dir, "127.0.0.1", port,
                                                                      want.routes, origin));
        }
    }
    if (!servers_.empty()) {
        dashboard::enable_live();
    }
}

}  // namespace sbx::cli
