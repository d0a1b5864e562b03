// Benchmark peers that need a C program: `loop N PROGRAM` times N posix_spawn+waitpid of
// PROGRAM (the floor any executor pays), `rss PROGRAM ARGS...` runs a command and prints
// its peak resident set in KiB.
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

extern char **environ;

namespace {

int loop(long count, char *program) {
    char *argv[] = {program, nullptr};
    const auto start = std::chrono::steady_clock::now();
    for (long i = 0; i < count; ++i) {
        pid_t pid = 0;
        if (posix_spawn(&pid, program, nullptr, nullptr, argv, environ) != 0) {
            std::perror("posix_spawn");
            return 1;
        }
        int status = 0;
        waitpid(pid, &status, 0);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
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
    if (argc >= 4 && std::strcmp(argv[1], "loop") == 0) {
        return loop(std::atol(argv[2]), argv[3]);
    }
    if (argc >= 3 && std::strcmp(argv[1], "rss") == 0) {
        return peak_rss(argv + 2);
    }
    std::fprintf(stderr, "usage: sbx-bench-spawn-loop loop N PROGRAM | rss PROGRAM [ARGS...]\n");
    return 2;
}
