// Process identities from /proc.
#include "util/process_identity.hpp"

#include <unistd.h>

#include <fstream>
#include <iterator>
#include <sstream>

namespace sbx {

unsigned long long process_start_time(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    const std::string text((std::istreambuf_iterator<char>(stat)),
                           std::istreambuf_iterator<char>());
    // The command name may hold spaces and parentheses: fields start after the last ')'.
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

std::string own_identity() {
    return std::to_string(getpid()) + " " + std::to_string(process_start_time(getpid()));
}

bool identity_alive(const std::string &identity) {
    std::istringstream fields(identity);
    long long pid = 0;
    unsigned long long start = 0;
    if (!(fields >> pid >> start) || pid <= 0) {
        return false;
    }
    return process_start_time(static_cast<pid_t>(pid)) == start;
}

}  // namespace sbx
