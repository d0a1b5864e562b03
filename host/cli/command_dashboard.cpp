// `serve-dashboard [--port P] [--bind ADDR]`: serves the dashboard until Ctrl-C or SIGTERM.
#include <chrono>
#include <cstdio>
#include <thread>

#include "cli_context.hpp"
#include "dashboard/web_server.hpp"
#include "live_servers.hpp"
#include "option_parsing.hpp"
#include "plugins/plugin.hpp"
#include "util/errors.hpp"

namespace sbx::cli {

int run_dashboard_command(CliContext &context, const std::vector<std::string> &args) {
    namespace po = boost::program_options;
    std::string port_text = "8002";
    std::string bind = "127.0.0.1";
    po::options_description description("serve-dashboard options");
    description.add_options()("port", po::value(&port_text), "port (default 8002; 0: any free)")(
        "bind", po::value(&bind), "address to listen on (default 127.0.0.1)");
    parse_options("serve-dashboard", args, description, {},
                  "use `sandbox-runner serve-dashboard [--port P] [--bind ADDR]`");
    const int port = port_text == "0" ? 0 : parse_port(port_text, "serve-dashboard --port");
    dashboard::WebServer server(context.settings.data_dir, bind, port, dashboard::Routes::dashboard,
                                "serve-dashboard --port");
    const std::string host = bind.find(':') != std::string::npos ? "[" + bind + "]" : bind;
    std::printf("dashboard: http://%s:%d/ (reading %s/metrics.db; Ctrl-C stops it)\n", host.c_str(),
                server.port(), context.settings.data_dir.c_str());
    std::fflush(stdout);
    // The signal handler only raises the flag: the server is stopped from here.
    while (!plugins::cancel_requested()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    server.stop();
    return kExitOk;
}

}  // namespace sbx::cli
