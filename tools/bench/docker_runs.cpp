// tools/bench/docker: N runs of one spec through the real docker executor (the host's
// loader, no host around it), after one warm-up run; prints "ms_per_run: X", the number
// of distinct containers the runs used and the pool's transports ("transport: agent").
//   sbx-bench-docker-runs PLUGIN N CONFIG_JSON SPEC_JSON
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "plugins/plugin.hpp"

int main(int argc, char **argv) {
    if (argc != 5) {
        std::fprintf(stderr, "usage: sbx-bench-docker-runs PLUGIN N CONFIG_JSON SPEC_JSON\n");
        return 2;
    }
    const auto plugin = sbx::plugins::load_plugin(argv[1]);
    const int runs = std::stoi(argv[2]);
    auto executor = plugin->create(nlohmann::json::parse(argv[3]));
    const std::string spec = argv[4];
    (void)executor->run(spec);  // warm-up: the pool's first container, the connection
    std::set<std::string> containers;
    std::set<std::string> transports;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < runs; ++i) {
        const auto result = nlohmann::json::parse(executor->run(spec));
        if (result.value("status", "") != "OK") {
            std::fprintf(stderr, "run %d: %s\n", i, result.dump().c_str());
            return 1;
        }
        containers.insert(result.value("container", ""));
        transports.insert(result.value("transport", "none"));
    }
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::string transport;
    for (const auto &each : transports) {
        transport += (transport.empty() ? "" : ",") + each;
    }
    std::printf("ms_per_run: %.2f\ncontainers: %zu\ntransport: %s\n", ms / runs, containers.size(),
                transport.c_str());
    return 0;
}
