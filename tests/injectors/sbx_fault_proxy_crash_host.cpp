// A host that dies without cleaning up: loads the fault_proxy injector through the real
// loader, prepares one run with a proxy in front of TARGET, prints the prepare response's
// "fault_proxy" object on one line, then waits to be SIGKILLed by the test.
//   sbx_fault_proxy_crash_host PLUGIN STATE_DIR TARGET
#include <unistd.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "plugins/plugin.hpp"

int main(int argc, char **argv) {
    if (argc != 4) {
        std::cerr << "usage: sbx_fault_proxy_crash_host PLUGIN STATE_DIR TARGET\n";
        return 2;
    }
    using nlohmann::json;
    const auto plugin = sbx::plugins::load_plugin(argv[1]);
    const auto injector = plugin->create(json::object());
    const json request = {
        {"preset", {{"FAILURE_MODES", "flaky_upstream"}, {"API_LATENCY_MS", "10"}}},
        {"spec",
         {{"run_id", "crash-1"},
          {"argv", {"/bin/true"}},
          {"upstreams", {{{"name", "api"}, {"listen", "127.0.0.1:0"}, {"target", argv[3]}}}}}},
        {"run_id", "crash-1"},
        {"state_dir", argv[2]}};
    const json response = json::parse(injector->prepare(request.dump()));
    std::cout << response.at("fault_proxy").dump() << std::endl;
    for (;;) {
        ::pause();
    }
}
