// sbx-plugin-host: loads one plugin file and serves it to sandbox-runner over fd 3, so a
// plugin that crashes, hangs or scribbles takes down only this process.
//   sbx-plugin-host --describe PATH [LEVEL [MEMORY]]  load it, send its description, exit
//   sbx-plugin-host --serve PATH [LEVEL [MEMORY]]     load it, then create one instance and
//                                                     serve calls until the channel closes
// LEVEL: the lowest log level forwarded to the host (spdlog numbering, 2 = info).
// MEMORY: the most data this process may hold, in bytes (RLIMIT_DATA; 0: no limit).
#include <dlfcn.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <thread>

#include "plugin_host/channel.hpp"
#include "plugin_host/serve.hpp"
#include "plugins/plugin.hpp"
#include "util/number_parse.hpp"

namespace {

constexpr int kChannel = 3;

void on_stop(int) {
    sbx::plugins::request_cancel();
}

// Ends this process when the host ends, even when the host is killed while a plugin call
// hangs here. Rationale: not PR_SET_PDEATHSIG, which fires when the host *thread* that
// spawned this process ends, and hosts spawn from worker threads that come and go.
void watch_parent() {
    const pid_t parent = ::getppid();
    if (parent == 1) {
        ::_exit(3);  // the host is gone already
    }
    const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, parent, 0));
    std::thread([parent, pidfd] {
        if (pidfd >= 0) {
            pollfd gone{pidfd, POLLIN, 0};
            while (::poll(&gone, 1, -1) < 0) {
            }
        } else {
            while (::getppid() == parent) {
                ::usleep(200 * 1000);
            }
        }
        ::_exit(3);
    }).detach();
}

// True when a sanitizer's runtime is in this process (this binary built with one, or its
// runtime preloaded to debug a plugin built with it).
bool under_sanitizer() {
    for (const char *init : {"__asan_init", "__tsan_init", "__msan_init", "__hwasan_init"}) {
        if (::dlsym(RTLD_DEFAULT, init) != nullptr) {
            return true;
        }
    }
    return false;
}

// RLIMIT_DATA counts the heap and every private writable mapping (malloc's large blocks
// too), so a leaking plugin gets NULL from malloc (std::bad_alloc) at the limit instead of
// growing until the machine swaps. Not under a sanitizer, whose shadow memory is terabytes
// of such mappings.
void limit_memory(const char *bytes_text) {
    const uint64_t bytes = sbx::util::parse_uint64(bytes_text).value_or(0);
    if (bytes > 0 && !under_sanitizer()) {
        const rlimit limit{static_cast<rlim_t>(bytes), static_cast<rlim_t>(bytes)};
        ::setrlimit(RLIMIT_DATA, &limit);
    }
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 3 || argc > 5 ||
        (std::strcmp(argv[1], "--describe") != 0 && std::strcmp(argv[1], "--serve") != 0)) {
        std::cerr << "usage: sbx-plugin-host --describe|--serve PLUGIN.so (started by "
                     "sandbox-runner, with its channel on fd 3)\n";
        return 2;
    }
    watch_parent();
    if (argc == 5) {
        limit_memory(argv[4]);
    }
    // Ctrl-C reaches the whole process group; the host decides, the plugin is only asked
    // to stop (is_cancelled) as it would be in process.
    for (const int signal_number : {SIGINT, SIGTERM, SIGUSR1}) {
        ::signal(signal_number, on_stop);
    }
    ::signal(SIGPIPE, SIG_IGN);
    // spdlog's level as a number; 2 (info) when it is unreadable.
    const auto level = argc >= 4 ? sbx::util::parse_int64(argv[3]) : std::nullopt;
    sbx::plugin_host::forward_logs_to(kChannel, static_cast<int>(level.value_or(2)));
    const bool describe_only = std::strcmp(argv[1], "--describe") == 0;
    return sbx::plugin_host::serve(kChannel, argv[2], describe_only);
}
