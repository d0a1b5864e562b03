// A host that dies without cleaning up: loads the docker executor through the real loader,
// runs one spec with the pool on (so a warm container stays running), prints the result on
// one line, then waits to be SIGKILLed by the test, which checks what purge-stale removes.
//   sbx_docker_crash_host PLUGIN CONFIG_JSON SPEC_JSON
#include <unistd.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "plugins/plugin.hpp"

int main(int argc, char **argv) {
    if (argc != 4) {
        std::cerr << "usage: sbx_docker_crash_host PLUGIN CONFIG_JSON SPEC_JSON\n";
        return 2;
    }
    const auto plugin = sbx::plugins::load_plugin(argv[1]);
    const auto executor = plugin->create(nlohmann::json::parse(argv[2]));
    std::cout << executor->run(argv[3]) << std::endl;
    for (;;) {
        ::pause();
    }
}
