// printf formatting into a std::string: the tables and reports the core builds keep the
// column widths and decimals their printf lines always had, the compiler checking each format.
#pragma once

#include <string>

namespace sbx::util {

// What std::printf(format, ...) would print, as a string.
[[gnu::format(printf, 1, 2)]] std::string printf_text(const char *format, ...);

}  // namespace sbx::util
