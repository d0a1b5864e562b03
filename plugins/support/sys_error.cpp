// Failed system calls as readable text, with the symbolic errno name beside the sentence so
// logs can be grepped for ENOENT/EACCES without knowing the locale's wording.
#include "sys_error.hpp"

#include <cstring>

namespace sbx::support {

std::string errno_text(int error_number) {
    // strerrordesc_np/strerrorname_np are thread-safe and locale-independent (glibc 2.32).
    const char *description = strerrordesc_np(error_number);
    const char *name = strerrorname_np(error_number);
    std::string text = description != nullptr ? description : "unknown error";
    text += " (";
    text += name != nullptr ? name : "errno " + std::to_string(error_number);
    text += ")";
    return text;
}

void throw_system_error(const std::string &what, int error_number, sbx_status status) {
    throw Error(status, what + ": " + errno_text(error_number));
}

}  // namespace sbx::support
