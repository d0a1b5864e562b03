// tools/bench/plugins helper: loads each plugin file given, once, through the host's real
// loader (pre-check, dlopen, ABI negotiation, descriptor, init) and prints one line per
// file, "load_us <file> <microseconds>", then the process's resident memory before and
// after: "rss_kb <before> <after>". One process per round: the loader never unloads.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "plugins/plugin.hpp"

namespace {

long rss_kb() {
    std::ifstream status("/proc/self/status");
    std::string key;
    long value = 0;
    while (status >> key) {
        if (key == "VmRSS:") {
            status >> value;
            return value;
        }
        status.ignore(4096, '\n');
    }
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    const long before = rss_kb();
    std::vector<std::shared_ptr<sbx::plugins::Plugin>> kept;  // loaded for the RSS figure
    for (int i = 1; i < argc; ++i) {
        const auto start = std::chrono::steady_clock::now();
        kept.push_back(sbx::plugins::load_plugin(argv[i]));
        const auto took = std::chrono::steady_clock::now() - start;
        std::printf("load_us %s %.1f\n", argv[i],
                    std::chrono::duration<double, std::micro>(took).count());
    }
    std::printf("rss_kb %ld %ld\n", before, rss_kb());
    return 0;
}
