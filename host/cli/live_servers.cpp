// The dashboard and exporter beside a long command (dashboard/live_servers), their ports
// taken out of the command's words.
#include "live_servers.hpp"

#include <optional>

#include "util/errors.hpp"

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

// Both options taken out, in this order, before anything starts.
dashboard::LivePorts take_ports(std::vector<std::string> &args) {
    dashboard::LivePorts ports;
    ports.dashboard = take_option(args, "--dashboard-port");
    ports.metrics = take_option(args, "--metrics-port");
    return ports;
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

LiveServers::LiveServers(std::vector<std::string> &args, const std::string &data_dir)
    : dashboard::LiveServers(data_dir, take_ports(args)) {}

}  // namespace sbx::cli
