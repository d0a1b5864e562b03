// Telling whether a recorded process is still the same process: a pid alone can be reused,
// a (pid, start time) pair cannot. Read from /proc/PID/stat (Linux). Header-only, so the
// host's owner records and a plugin's state records (which `purge-stale` and a plugin's
// sweep read after a crash) agree on what "the writer is gone" means.
#pragma once

#include <sys/types.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>

namespace sbx {

// Field `index` (1-based, as proc(5) numbers them; 3 or more) of /proc/PID/stat, or nullopt
// when the process is gone. The command name (field 2) may hold spaces and parentheses, so
// the fields are counted from its last ')'.
inline std::optional<std::string> proc_stat_field(pid_t pid, int index) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    const std::string text((std::istreambuf_iterator<char>(stat)),
                           std::istreambuf_iterator<char>());
    const auto close_paren = text.rfind(')');
    if (close_paren == std::string::npos || close_paren + 2 > text.size()) {
        return std::nullopt;
    }
    std::istringstream fields(text.substr(close_paren + 2));
    std::string field;
    for (int at = 3; fields >> field; ++at) {
        if (at == index) {
            return field;
        }
    }
    return std::nullopt;
}

// The start time of `pid` in clock ticks since boot (field 22), 0 when it is gone.
inline unsigned long long process_start_time(pid_t pid) {
    const auto field = proc_stat_field(pid, 22);
    if (!field) {
        return 0;
    }
    try {
        return std::stoull(*field);
    } catch (const std::exception &) {
        return 0;
    }
}

// The parent of a live process (field 4), 0 when it is gone.
inline pid_t parent_pid(pid_t pid) {
    const auto field = proc_stat_field(pid, 4);
    if (!field) {
        return 0;
    }
    try {
        return static_cast<pid_t>(std::stol(*field));
    } catch (const std::exception &) {
        return 0;
    }
}

struct ProcessIdentity {
    pid_t pid = 0;
    unsigned long long start_time = 0;

    static ProcessIdentity current() {
        const pid_t pid = ::getpid();
        return {pid, process_start_time(pid)};
    }
    // "<pid> <start time>", as owner records store it.
    [[nodiscard]] std::string text() const {
        return std::to_string(pid) + " " + std::to_string(start_time);
    }
    // From text(); a default (never alive) identity when the text is not one.
    static ProcessIdentity parse(const std::string &text) {
        std::istringstream fields(text);
        long long pid = 0;
        unsigned long long start = 0;
        if (!(fields >> pid >> start) || pid <= 0) {
            return {};
        }
        return {static_cast<pid_t>(pid), start};
    }
    // True while the very process this names runs (not another one that got its pid).
    [[nodiscard]] bool alive() const {
        return pid > 0 && start_time != 0 && process_start_time(pid) == start_time;
    }
};

}  // namespace sbx
