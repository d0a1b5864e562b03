// Per-run overhead of the local executor: runs of /bin/true through the real plugin against
// raw posix_spawn + waitpid of the same program, in alternating blocks so that load from
// other processes hits both alike. Prints the median milliseconds per run of each.
// Usage: bench_executors_local [RUNS] [CONFIG_JSON], e.g. '{"workspace_root":"/dev/shm/sbx"}'.
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
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

}  // namespace

int main(int argc, char **argv) try {
    const int runs = argc > 1 ? std::atoi(argv[1]) : 1000;
    char program[] = "/bin/true";
    char *spawn_argv[] = {program, nullptr};

    const auto plugin = sbx::plugins::load_plugin(SBX_LOCAL_EXECUTOR_PATH);
    const auto instance =
        plugin->create(argc > 2 ? nlohmann::json::parse(argv[2]) : nlohmann::json::object());
    const std::string spec = nlohmann::json{{"argv", {program}}}.dump();

    std::vector<double> raw;
    std::vector<double> local;
    for (int done = 0; done < runs; done += kBlock) {
        raw.push_back(block_ms_per_run([&] {
            pid_t pid = 0;
            if (::posix_spawn(&pid, program, nullptr, nullptr, spawn_argv, environ) != 0) {
                throw std::runtime_error("posix_spawn failed");
            }
            int status = 0;
            ::waitpid(pid, &status, 0);
        }));
        local.push_back(block_ms_per_run([&] {
            if (nlohmann::json::parse(instance->run(spec))["status"] != "OK") {
                throw std::runtime_error("a run of /bin/true did not end OK");
            }
        }));
    }
    const double raw_ms = median(raw);
    const double local_ms = median(local);
    std::printf("runs: %d each, median of blocks of %d\n", runs, kBlock);
    std::printf("posix_spawn+waitpid: %.3f ms/run\nlocal executor:      %.3f ms/run\n", raw_ms,
                local_ms);
    std::printf("ratio: %.2fx\n", local_ms / raw_ms);
    return 0;
} catch (const std::exception &e) {
    std::fprintf(stderr, "bench_executors_local: %s\n", e.what());
    return 1;
}
