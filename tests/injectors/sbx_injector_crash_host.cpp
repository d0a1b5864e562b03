// A host that dies without tearing down: loads an injector through the real loader, prepares
// one run from the request given, prints the prepare response on one line, then waits to be
// SIGKILLed by the test, which then checks what sweep() puts right.
//   sbx_injector_crash_host PLUGIN CONFIG_JSON REQUEST_JSON
#include <unistd.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "plugins/plugin.hpp"

int main(int argc, char **argv) {
    if (argc != 4) {
        std::cerr << "usage: sbx_injector_crash_host PLUGIN CONFIG_JSON REQUEST_JSON\n";
        return 2;
    }
    const auto plugin = sbx::plugins::load_plugin(argv[1]);
    const auto injector = plugin->create(nlohmann::json::parse(argv[2]));
    std::cout << injector->prepare(argv[3]) << std::endl;
    for (;;) {
        ::pause();
    }
}
