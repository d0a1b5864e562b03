// printf into a string: measured first, then written, so no line is ever cut short.
#include "util/printf_text.hpp"

#include <cstdarg>
#include <cstdio>

namespace sbx::util {

std::string printf_text(const char *format, ...) {
    va_list args;
    va_start(args, format);
    va_list measuring;
    va_copy(measuring, args);
    const int size = std::vsnprintf(nullptr, 0, format, measuring);
    va_end(measuring);
    std::string text(size > 0 ? static_cast<size_t>(size) : 0, '\0');
    if (size > 0) {
        // C++17 strings hold a terminator past size(): vsnprintf may write it there.
        std::vsnprintf(text.data(), text.size() + 1, format, args);
    }
    va_end(args);
    return text;
}

}  // namespace sbx::util
