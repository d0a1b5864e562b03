// printf's formatting into a std::string, for text laid out in fixed-width columns (tables
// a command prints, report lines) that is built before it is written anywhere.
#pragma once

#include <string>

namespace sbx::util {

// `format` with its arguments as std::printf would print them, of any length.
std::string format_text(const char *format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace sbx::util
