// printf's formatting into a string (util/text_format), of any length.
#include <gtest/gtest.h>

#include "util/text_format.hpp"

namespace sbx::util {
namespace {

TEST(FormatText, AsPrintfWouldPrintIt) {
    EXPECT_EQ(format_text("%-6s|%5.2f|%+d", "ab", 1.5, 3), "ab    | 1.50|+3");
    EXPECT_EQ(format_text("%s", ""), "");
}

TEST(FormatText, NothingIsCut) {
    const std::string long_word(5000, 'x');
    EXPECT_EQ(format_text("[%s]", long_word.c_str()), "[" + long_word + "]");
}

}  // namespace
}  // namespace sbx::util
