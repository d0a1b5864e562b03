// Benchmark helper of tools/bench/stubs: input sets per second of one stub strategy, the
// real .so loaded through the host's loader, on a small slot set (4 slots: a name, a
// bounded int, an email, a JSON record), and the resident memory a plugin takes.
//   sbx-bench-stub-throughput rate PLUGIN SETS_PER_CALL TOTAL_SETS
//       prints: sets_per_second N   (generate() calls of SETS_PER_CALL sets until TOTAL_SETS)
//   sbx-bench-stub-throughput rss PLUGIN
//       prints: rss_kb BEFORE_LOAD AFTER_LOAD AFTER_CREATE AFTER_GENERATE
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "plugins/plugin.hpp"

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// The slots of a typical step, described as the host's cell runner describes them.
json request(int64_t count, int64_t seed) {
    const json slots = {
        {"customer_name", {{"type", "string"}, {"required", true}}},
        {"quantity", {{"type", "int"}, {"required", true}, {"min", 1.0}, {"max", 100.0}}},
        {"email", {{"type", "email"}, {"required", true}}},
        {"record",
         {{"type", "json"}, {"required", true}, {"example", {{"id", 1}, {"name", "Ada"}}}}}};
    return {{"slots", slots}, {"count", count}, {"seed", seed}, {"preset", json::object()}};
}

// Resident set size from /proc/self/statm, in KiB.
long rss_kb() {
    std::ifstream statm("/proc/self/statm");
    long pages = 0;
    long resident = 0;
    statm >> pages >> resident;
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

int rate(const char *plugin_path, int64_t per_call, int64_t total) {
    const auto plugin = sbx::plugins::load_plugin(plugin_path);
    const auto stub = plugin->create(json::object());
    stub->generate(request(per_call, 0).dump());  // warm: first-use statics, page faults
    std::size_t bytes = 0;
    int64_t made = 0;
    int64_t seed = 1;
    const auto start = Clock::now();
    while (made < total) {
        // A new seed per call, as cells of a session get; the request text is built outside
        // the plugin in the host too, but it is cheap next to the response.
        bytes += stub->generate(request(per_call, seed++).dump()).size();
        made += per_call;
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    std::printf("sets_per_second %.0f\nresponse_bytes_per_set %.1f\n",
                static_cast<double>(made) / seconds,
                static_cast<double>(bytes) / static_cast<double>(made));
    return 0;
}

int rss(const char *plugin_path) {
    const long before = rss_kb();
    const auto plugin = sbx::plugins::load_plugin(plugin_path);
    const long loaded = rss_kb();
    const auto stub = plugin->create(json::object());
    const long created = rss_kb();
    stub->generate(request(1000, 1).dump());
    const long generated = rss_kb();
    std::printf("rss_kb %ld %ld %ld %ld\n", before, loaded, created, generated);
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    try {
        if (mode == "rate" && argc == 5) {
            return rate(argv[2], std::atoll(argv[3]), std::atoll(argv[4]));
        }
        if (mode == "rss" && argc == 3) {
            return rss(argv[2]);
        }
    } catch (const std::exception &e) {
        std::cerr << "sbx-bench-stub-throughput: " << e.what() << "\n";
        return 1;
    }
    std::cerr << "usage: sbx-bench-stub-throughput rate PLUGIN SETS_PER_CALL TOTAL_SETS\n"
                 "       sbx-bench-stub-throughput rss PLUGIN\n";
    return 2;
}
