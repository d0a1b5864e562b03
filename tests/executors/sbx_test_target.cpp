// Misbehaving target programs for the executor and injector tests, one mode per behaviour:
// memory hog, busy loops, daemonizing grandchild, fork bomb, file writers, and every way a
// program ends by a signal (abort, failed assert, kill self, raise, NULL write, closed pipe,
// file size limit). Also built statically, to run in a busybox container or the qemu guest.
#undef NDEBUG  // the failed-assert mode needs assert() in a release build too
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace {

int usage() {
    std::fprintf(stderr,
                 "usage: sbx_test_target hog | busy | spin MS | segv | daemonize PIDFILE [TOKEN]"
                 " | forkbomb TOKEN | write FILE BYTES | pattern FILE BYTES write|pwrite|fwrite"
                 " | abort | assert | kill-self | raise-segv | null-write | closed-pipe"
                 " | fsize LIMIT FILE BYTES\n");
    return 2;
}

// Touches memory 1 MiB at a time. Stops at 1 GiB so a missing limit fails the test, not
// the machine.
int hog() {
    constexpr std::size_t kStep = 1 << 20;
    std::vector<char *> blocks;
    for (int i = 0; i < 1024; ++i) {
        auto *block = static_cast<char *>(std::malloc(kStep));
        if (block == nullptr) {
            std::printf("malloc failed after %d MiB\n", i);
            return 4;
        }
        std::memset(block, i & 0xff, kStep);
        blocks.push_back(block);
    }
    std::printf("allocated 1 GiB without being stopped\n");
    return 3;
}

int busy() {
    volatile unsigned long counter = 0;
    for (;;) {
        counter = counter + 1;
    }
}

// Busy for `milliseconds` of wall-clock time, then exits 0: the CPU it got in that time
// is the share it was allowed.
int spin(long milliseconds) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(milliseconds);
    volatile unsigned long counter = 0;
    while (std::chrono::steady_clock::now() < until) {
        for (int i = 0; i < 10000; ++i) {
            counter = counter + 1;
        }
    }
    return 0;
}

// The byte the pattern file holds at `offset`: every value, in an order no corruption keeps.
unsigned char pattern_byte(long long offset) {
    return static_cast<unsigned char>((offset * 131 + 7) % 251);
}

// Writes BYTES of the pattern to FILE, 4 KiB at a time, through write(2), pwrite(2) or
// fwrite(3): what a disk corruption shim sees of an ordinary program.
int write_pattern(const char *path, long long bytes, const std::string &how) {
    constexpr long long kChunk = 4096;
    unsigned char chunk[kChunk];
    FILE *stream = how == "fwrite" ? std::fopen(path, "wb") : nullptr;
    const int fd = how == "fwrite" ? -1 : ::open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (stream == nullptr && fd < 0) {
        std::printf("open failed %s\n", strerrorname_np(errno));
        return 1;
    }
    for (long long offset = 0; offset < bytes; offset += kChunk) {
        const long long length = std::min(kChunk, bytes - offset);
        for (long long i = 0; i < length; ++i) {
            chunk[i] = pattern_byte(offset + i);
        }
        const auto size = static_cast<std::size_t>(length);
        const bool ok = how == "fwrite"   ? std::fwrite(chunk, 1, size, stream) == size
                        : how == "pwrite" ? ::pwrite(fd, chunk, size, offset) == length
                                          : ::write(fd, chunk, size) == length;
        if (!ok) {
            std::printf("write failed %s\n", strerrorname_np(errno));
            return 1;
        }
    }
    if (stream != nullptr) {
        std::fclose(stream);
    } else {
        ::close(fd);
    }
    std::printf("wrote %lld\n", bytes);
    return 0;
}

int segv() {
    volatile int *nowhere = nullptr;
    return *nowhere;  // NOLINT(clang-analyzer-core.NullDereference): the point of this mode
}

// The host PID: /proc is the host's mount, so /proc/self names us in the host's namespace
// even when getpid() says 1 or 3.
std::string host_pid() {
    char buffer[32] = {};
    const ssize_t length = ::readlink("/proc/self", buffer, sizeof(buffer) - 1);
    return length > 0 ? std::string(buffer, static_cast<std::size_t>(length)) : "?";
}

// Double fork with setsid in between: the classic daemon that escapes its parent and its
// process group. The grandchild records its host PID, then sleeps forever.
int daemonize(const char *pid_file) {
    const pid_t child = ::fork();
    if (child == 0) {
        ::setsid();
        if (::fork() == 0) {
            const std::string temporary = std::string(pid_file) + ".tmp";
            std::ofstream(temporary) << host_pid() << "\n";
            ::rename(temporary.c_str(), pid_file);
            for (;;) {
                ::pause();
            }
        }
        ::_exit(0);
    }
    ::waitpid(child, nullptr, 0);
    for (int i = 0; i < 500 && ::access(pid_file, F_OK) != 0; ++i) {
        ::usleep(10000);
    }
    std::ifstream in(pid_file);
    std::string pid;
    in >> pid;
    std::printf("grandchild %s\n", pid.c_str());
    return pid.empty() ? 1 : 0;
}

// Refuses to run outside a sandbox-runner pids cgroup: a broken limit must fail the test,
// not take the machine down.
int forkbomb() {
    std::ifstream cgroups("/proc/self/cgroup");
    std::string line;
    bool contained = false;
    while (std::getline(cgroups, line)) {
        contained = contained ||
                    (line.find("pids") != std::string::npos &&
                     line.find("sandbox-runner") != std::string::npos) ||
                    (line.rfind("0::", 0) == 0 && line.find("sandbox-runner") != std::string::npos);
    }
    if (!contained) {
        std::printf("not in a sandbox-runner pids cgroup; refusing to fork-bomb\n");
        return 2;
    }
    for (;;) {
        ::fork();  // children loop too; at pids.max fork fails with EAGAIN and we spin
    }
}

int write_file(const char *path, long long bytes) {
    const int fd = ::open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        std::printf("open failed %s\n", strerrorname_np(errno));
        return 1;
    }
    static char chunk[64 * 1024];
    long long written = 0;
    int error = 0;
    while (written < bytes) {
        const auto want = static_cast<std::size_t>(
            std::min<long long>(static_cast<long long>(sizeof(chunk)), bytes - written));
        const ssize_t got = ::write(fd, chunk, want);
        if (got <= 0) {
            error = got < 0 ? errno : EIO;
            break;
        }
        written += got;
    }
    ::close(fd);
    std::printf("wrote %lld\n", written);
    if (error != 0) {
        std::printf("error %s\n", strerrorname_np(error));
        return 1;
    }
    return 0;
}

// A real store through a NULL pointer (segv reads one).
int null_write() {
    volatile int *nowhere = nullptr;
    *nowhere = 1;  // NOLINT(clang-analyzer-core.NullDereference): the point of this mode
    return 0;
}

// Writes into a pipe whose read end is closed: SIGPIPE, as `yes | head -1` ends `yes`.
int closed_pipe() {
    int ends[2];
    if (::pipe(ends) != 0) {
        std::printf("pipe failed %s\n", strerrorname_np(errno));
        return 1;
    }
    ::close(ends[0]);
    const char byte = 'x';
    const ssize_t wrote = ::write(ends[1], &byte, 1);
    std::printf("write returned %zd %s\n", wrote, strerrorname_np(errno));
    return 1;
}

int signal_self_and_report(int signal_number, bool by_raise) {
    if (by_raise) {
        ::raise(signal_number);
    } else {
        ::kill(::getpid(), signal_number);
    }
    std::printf("still running after signal %d\n", signal_number);
    return 1;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 2) {
        return usage();
    }
    const std::string mode = argv[1];
    if (mode == "hog") {
        return hog();
    }
    if (mode == "busy") {
        return busy();
    }
    if (mode == "spin" && argc == 3) {
        return spin(std::atol(argv[2]));
    }
    if (mode == "pattern" && argc == 5) {
        return write_pattern(argv[2], std::atoll(argv[3]), argv[4]);
    }
    if (mode == "segv") {
        return segv();
    }
    if (mode == "daemonize" && (argc == 3 || argc == 4)) {  // [TOKEN]: a mark to find it by
        return daemonize(argv[2]);
    }
    if (mode == "forkbomb" && argc == 3) {
        return forkbomb();
    }
    if (mode == "write" && argc == 4) {
        return write_file(argv[2], std::atoll(argv[3]));
    }
    if (mode == "fsize" && argc == 5) {  // write past a file size limit it sets itself
        const auto limit = static_cast<rlim_t>(std::atoll(argv[2]));
        const rlimit fsize{limit, limit};
        ::setrlimit(RLIMIT_FSIZE, &fsize);
        return write_file(argv[3], std::atoll(argv[4]));
    }
    if (mode == "abort") {
        std::abort();
    }
    if (mode == "assert") {
        assert(mode.empty() && "a failed assert");
        return 1;
    }
    if (mode == "kill-self") {
        return signal_self_and_report(SIGTERM, false);
    }
    if (mode == "raise-segv") {
        return signal_self_and_report(SIGSEGV, true);
    }
    if (mode == "null-write") {
        return null_write();
    }
    if (mode == "closed-pipe") {
        return closed_pipe();
    }
    return usage();
}
