// Benchmark peers that need a C program:
//   `loop N PROGRAM [ARGS...]`           N posix_spawn+waitpid of PROGRAM one after another
//                                         (the floor any executor pays at 1 worker);
//   `parallel N THREADS PROGRAM [ARGS...]` the same N runs shared by THREADS threads, each
//                                         spawning and waiting in turn (the floor at THREADS
//                                         workers: the same concurrency as the host's pool);
//   `rss PROGRAM [ARGS...]`              runs a command and prints its peak resident set in KiB.
// loop and parallel print the wall time per run in seconds (total wall / N).
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

extern char **environ;

namespace {

// One posix_spawn+waitpid of argv[0]; false (with a message) when it cannot be spawned.
bool spawn_and_wait(char **argv) {
    pid_t pid = 0;
    const int error = posix_spawn(&pid, argv[0], nullptr, nullptr, argv, environ);
    if (error != 0) {
        std::fprintf(stderr, "posix_spawn %s: %s\n", argv[0], std::strerror(error));
        return false;
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return true;
}

// N runs over `threads` threads drawing from one counter, as the host's workers draw runs
// from its task list; 1 thread is the plain serial loop.
int spawn_runs(long count, long threads, char **argv) {
    std::atomic<long> next{0};
    std::atomic<bool> failed{false};
    const auto work = [&] {
        while (!failed.load() && next.fetch_add(1) < count) {
            if (!spawn_and_wait(argv)) {
                failed.store(true);
            }
        }
    };
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> pool;
    for (long i = 1; i < threads; ++i) {
        pool.emplace_back(work);
    }
    work();
    for (auto &thread : pool) {
        thread.join();
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (failed.load()) {
        return 1;
    }
    std::printf("%.6f\n", seconds / static_cast<double>(count));
    return 0;
}

int peak_rss(char **argv) {
    pid_t pid = 0;
    if (posix_spawn(&pid, argv[0], nullptr, nullptr, argv, environ) != 0) {
        std::perror("posix_spawn");
        return 1;
    }
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    std::printf("%ld\n", usage.ru_maxrss);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc >= 4 && std::strcmp(argv[1], "loop") == 0 && std::atol(argv[2]) > 0) {
        return spawn_runs(std::atol(argv[2]), 1, argv + 3);
    }
    if (argc >= 5 && std::strcmp(argv[1], "parallel") == 0 && std::atol(argv[2]) > 0 &&
        std::atol(argv[3]) > 0) {
        return spawn_runs(std::atol(argv[2]), std::atol(argv[3]), argv + 4);
    }
    if (argc >= 3 && std::strcmp(argv[1], "rss") == 0) {
        return peak_rss(argv + 2);
    }
    std::fprintf(stderr,
                 "usage: sbx-bench-spawn-loop loop N PROGRAM [ARGS...]\n"
                 "       sbx-bench-spawn-loop parallel N THREADS PROGRAM [ARGS...]\n"
                 "       sbx-bench-spawn-loop rss PROGRAM [ARGS...]\n");
    return 2;
}
