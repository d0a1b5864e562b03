// A host that dies without cleaning up: loads the network injector through the real loader,
// prepares one run (namespace, uplink, tbf, NFQUEUE helper), prints the prepare response's
// "network" object on one line, then waits to be SIGKILLed by the test.
//   sbx_net_crash_host PLUGIN STATE_DIR
#include <unistd.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "plugins/plugin.hpp"

int main(int argc, char **argv) {
    if (argc != 3) {
        std::cerr << "usage: sbx_net_crash_host PLUGIN STATE_DIR\n";
        return 2;
    }
    using nlohmann::json;
    const auto plugin = sbx::plugins::load_plugin(argv[1]);
    const auto injector = plugin->create(json::object());
    const json request = {{"preset",
                           {{"FAILURE_MODES", "network"},
                            {"NETWORK_LATENCY_MS", "20"},
                            {"PACKET_LOSS", "0.1"},
                            {"BANDWIDTH_LIMIT", "10mbps"}}},
                          {"spec", {{"run_id", "crash-1"}, {"argv", {"/bin/true"}}}},
                          {"run_id", "crash-1"},
                          {"state_dir", argv[2]}};
    const json response = json::parse(injector->prepare(request.dump()));
    std::cout << response.at("network").dump() << std::endl;
    for (;;) {
        ::pause();
    }
}
