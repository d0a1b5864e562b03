// The plugins' number parsing (plugins/support/number_parse.hpp): its own edge cases, and
// that it reads every text exactly as the host's util/number_parse does, since a preset value
// the host's checks accept must mean the same number to the plugin that acts on it.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "support/number_parse.hpp"
#include "util/number_parse.hpp"

namespace sbx::support {
namespace {

TEST(SupportParseInt64, WholeTextOnly) {
    EXPECT_EQ(parse_int64("-42"), -42);
    EXPECT_EQ(parse_int64("+42"), 42);
    EXPECT_EQ(parse_int64("+42", LeadingPlus::refused), std::nullopt);
    EXPECT_EQ(parse_int64("-9223372036854775808"), std::numeric_limits<std::int64_t>::min());
    for (const char *text :
         {"", "12abc", " 12", "12 ", "12\n", "1e3", "0x1f", "+-1", "--1", "9223372036854775808"}) {
        EXPECT_EQ(parse_int64(text), std::nullopt) << "'" << text << "'";
    }
}

TEST(SupportParseUint64, NoWrapNoGarbage) {
    EXPECT_EQ(parse_uint64("18446744073709551615"), std::numeric_limits<std::uint64_t>::max());
    for (const char *text : {"-1", "18446744073709551616", "4096\n", "4096 kB", " 4096", ""}) {
        EXPECT_EQ(parse_uint64(text), std::nullopt) << "'" << text << "'";
    }
}

TEST(SupportParseDouble, FiniteDecimalsOnly) {
    EXPECT_EQ(parse_double("0.01"), 0.01);
    EXPECT_EQ(parse_double("1e-3"), 1e-3);
    EXPECT_EQ(parse_double("+2.5"), 2.5);
    EXPECT_EQ(parse_double("+2.5", LeadingPlus::refused), std::nullopt);
    for (const char *text : {"inf", "nan", "1e400", "0x1p3", "0,5", "1%", " 1", "1 ", ""}) {
        EXPECT_EQ(parse_double(text), std::nullopt) << "'" << text << "'";
    }
}

// Texts on every edge of the grammar: signs, spaces, bases, exponents, limits, junk.
const std::vector<std::string> &edge_texts() {
    static const std::vector<std::string> texts = {"",
                                                   "0",
                                                   "-0",
                                                   "+0",
                                                   "7",
                                                   "-7",
                                                   "+7",
                                                   "007",
                                                   "+-7",
                                                   "-+7",
                                                   "++7",
                                                   "--7",
                                                   "+",
                                                   "-",
                                                   " 7",
                                                   "7 ",
                                                   "\t7",
                                                   "7\n",
                                                   "7abc",
                                                   "abc",
                                                   "7.0",
                                                   ".5",
                                                   "5.",
                                                   "-.5",
                                                   "+.5",
                                                   "1e3",
                                                   "1E-3",
                                                   "1e",
                                                   "e1",
                                                   "0x10",
                                                   "0b1",
                                                   "1,5",
                                                   "1_000",
                                                   "inf",
                                                   "-inf",
                                                   "nan",
                                                   "infinity",
                                                   "9223372036854775807",
                                                   "9223372036854775808",
                                                   "-9223372036854775808",
                                                   "-9223372036854775809",
                                                   "18446744073709551615",
                                                   "18446744073709551616",
                                                   "1.7976931348623157e308",
                                                   "1e309",
                                                   "4.9e-324",
                                                   "1e-400",
                                                   "١٢"};
    return texts;
}

TEST(SupportNumberParse, ReadsEveryTextAsTheHostDoes) {
    for (const auto plus : {LeadingPlus::accepted, LeadingPlus::refused}) {
        const auto host_plus = plus == LeadingPlus::accepted ? util::LeadingPlus::accepted
                                                             : util::LeadingPlus::refused;
        for (const std::string &text : edge_texts()) {
            EXPECT_EQ(parse_int64(text, plus), util::parse_int64(text, host_plus))
                << "'" << text << "'";
            EXPECT_EQ(parse_uint64(text, plus), util::parse_uint64(text, host_plus))
                << "'" << text << "'";
            EXPECT_EQ(parse_double(text, plus), util::parse_double(text, host_plus))
                << "'" << text << "'";
        }
    }
}

}  // namespace
}  // namespace sbx::support
