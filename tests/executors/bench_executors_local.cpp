// Per-run overhead of the local executor: N runs of /bin/true through the real plugin
// against N raw posix_spawn + wait4 of the same program. Prints milliseconds per run.
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "plugins/plugin.hpp"

extern char **environ;  // NOLINT: POSIX global

namespace {

double per_run_ms(std::chrono::steady_clock::time_point start, int runs) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
               .count() /
           runs;
}

}  // namespace

int main(int argc, char **argv) {
    const int runs = argc > 1 ? std::atoi(argv[1]) : 1000;
    char program[] = "/bin/true";
    char *spawn_argv[] = {program, nullptr};

    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < runs; ++i) {
        pid_t pid = 0;
        if (::posix_spawn(&pid, program, nullptr, nullptr, spawn_argv, environ) != 0) {
            std::perror("posix_spawn");
            return 1;
        }
        int status = 0;
        ::waitpid(pid, &status, 0);
    }
    const double raw_ms = per_run_ms(start, runs);

    const auto plugin = sbx::plugins::load_plugin(SBX_LOCAL_EXECUTOR_PATH);
    const auto instance = plugin->create(nlohmann::json::object());
    const std::string spec = nlohmann::json{{"argv", {program}}}.dump();
    start = std::chrono::steady_clock::now();
    for (int i = 0; i < runs; ++i) {
        if (nlohmann::json::parse(instance->run(spec))["status"] != "OK") {
            std::fprintf(stderr, "run %d failed\n", i);
            return 1;
        }
    }
    const double plugin_ms = per_run_ms(start, runs);

    std::printf("runs: %d\nposix_spawn+wait: %.3f ms/run\nlocal executor:   %.3f ms/run\n"
                "ratio: %.2fx\n",
                runs, raw_ms, plugin_ms, plugin_ms / raw_ms);
    return 0;
}
