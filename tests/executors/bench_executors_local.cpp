// Per-run overhead of the local executor: runs of /bin/true through the real plugin against
// raw posix_spawn + waitpid of the same program, in alternating blocks so that load from
// other processes hits all alike. Prints the median milliseconds per run of each.
// Usage: bench_executors_local [RUNS] [CONFIG_JSON] [NAME=SPEC_JSON ...], e.g.
//   bench_executors_local 1000 '{"workspace_root":"/dev/shm/sbx"}'
//   bench_executors_local 1000 '{}' plain='{}' cgroup='{"limits":{"cpu_cores":1}}'
// Each NAME=SPEC_JSON is one variant: fields added to the spec of /bin/true (limits,
// workspace...); without any, one variant "local executor" with none. Ratios are given
// against raw spawn and against the first variant.
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "plugins/plugin.hpp"

extern char **environ;  // NOLINT: POSIX global

namespace {

constexpr int kBlock = 50;  // runs per timed block

template <class Body>
double block_ms_per_run(Body &&body) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < kBlock; ++i) {
        body();
    }
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
               .count() /
           kBlock;
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

struct Variant {
    std::string name;
    std::string spec;
    std::vector<double> blocks;
};

}  // namespace

int main(int argc, char **argv) try {
    const int runs = argc > 1 ? std::atoi(argv[1]) : 1000;
    char program[] = "/bin/true";
    char *spawn_argv[] = {program, nullptr};

    const auto plugin = sbx::plugins::load_plugin(SBX_LOCAL_EXECUTOR_PATH);
    const auto instance =
        plugin->create(argc > 2 ? nlohmann::json::parse(argv[2]) : nlohmann::json::object());
    std::vector<Variant> variants;
    for (int i = 3; i < argc; ++i) {
        const std::string argument = argv[i];
        const auto equals = argument.find('=');
        if (equals == std::string::npos) {
            throw std::runtime_error("variant '" + argument + "' is not NAME=SPEC_JSON");
        }
        nlohmann::json spec = nlohmann::json::parse(argument.substr(equals + 1));
        spec["argv"] = {program};
        variants.push_back({argument.substr(0, equals), spec.dump(), {}});
    }
    if (variants.empty()) {
        variants.push_back({"local executor", nlohmann::json{{"argv", {program}}}.dump(), {}});
    }

    std::vector<double> raw;
    for (int done = 0; done < runs; done += kBlock) {
        raw.push_back(block_ms_per_run([&] {
            pid_t pid = 0;
            if (::posix_spawn(&pid, program, nullptr, nullptr, spawn_argv, environ) != 0) {
                throw std::runtime_error("posix_spawn failed");
            }
            int status = 0;
            ::waitpid(pid, &status, 0);
        }));
        for (auto &variant : variants) {
            variant.blocks.push_back(block_ms_per_run([&] {
                const auto result = nlohmann::json::parse(instance->run(variant.spec));
                if (result["status"] != "OK") {
                    throw std::runtime_error("a run of /bin/true (" + variant.name +
                                             ") did not end OK: " + result.dump());
                }
            }));
        }
    }
    const double raw_ms = median(raw);
    const double first_ms = median(variants.front().blocks);
    std::printf("runs: %d each, median of blocks of %d\n", runs, kBlock);
    std::printf("%-24s %8.3f ms/run\n", "posix_spawn+waitpid:", raw_ms);
    for (const auto &variant : variants) {
        const double ms = median(variant.blocks);
        std::printf("%-24s %8.3f ms/run  ratio %.2fx raw, %.2fx %s\n", (variant.name + ":").c_str(),
                    ms, ms / raw_ms, ms / first_ms, variants.front().name.c_str());
    }
    if (variants.size() == 1) {
        std::printf("ratio: %.2fx\n", first_ms / raw_ms);
    }
    return 0;
} catch (const std::exception &e) {
    std::fprintf(stderr, "bench_executors_local: %s\n", e.what());
    return 1;
}
