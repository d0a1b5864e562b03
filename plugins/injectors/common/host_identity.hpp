// Which host process wrote a state record, so that sweep() touches only what a dead host
// left: its pid and its start time (a reused pid has another start time).
#pragma once

#include <unistd.h>

#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

namespace sbx::injectors {

// Field 22 of /proc/PID/stat (clock ticks since boot), or 0 when the process is gone.
inline unsigned long long process_start_time(long pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    const std::string text((std::istreambuf_iterator<char>(stat)),
                           std::istreambuf_iterator<char>());
    const auto close_paren = text.rfind(')');
    if (close_paren == std::string::npos || close_paren + 2 > text.size()) {
        return 0;
    }
    std::istringstream fields(text.substr(close_paren + 2));
    std::string field;
    for (int index = 3; index <= 22 && fields >> field; ++index) {
        if (index == 22) {
            try {
                return std::stoull(field);
            } catch (const std::exception &) {
                return 0;
            }
        }
    }
    return 0;
}

struct HostIdentity {
    long pid = 0;
    unsigned long long start_time = 0;

    static HostIdentity current() {
        const long pid = ::getpid();
        return {pid, process_start_time(pid)};
    }
    [[nodiscard]] bool alive() const {
        return pid > 0 && start_time != 0 && process_start_time(pid) == start_time;
    }
};

}  // namespace sbx::injectors
