// The host's number parsing: the whole text is the number or nothing is; what the signs,
// spaces, limits and non-decimal spellings that stoi and strtod let through give here.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "util/number_parse.hpp"

namespace sbx::util {
namespace {

constexpr auto kRefused = LeadingPlus::refused;

TEST(ParseInt64, DecimalWholeNumbers) {
    EXPECT_EQ(parse_int64("0"), 0);
    EXPECT_EQ(parse_int64("42"), 42);
    EXPECT_EQ(parse_int64("-7"), -7);
    EXPECT_EQ(parse_int64("007"), 7);
    EXPECT_EQ(parse_int64("9223372036854775807"), std::numeric_limits<int64_t>::max());
    EXPECT_EQ(parse_int64("-9223372036854775808"), std::numeric_limits<int64_t>::min());
}

TEST(ParseInt64, NothingButTheNumber) {
    for (const char *text : {"", " ", "-", "+", "12abc", "abc", " 12", "12 ", "12\n", "1.5", "1e3",
                             "0x10", "1 2", "--1", "٣"}) {
        EXPECT_EQ(parse_int64(text), std::nullopt) << "'" << text << "'";
    }
}

TEST(ParseInt64, OutOfRangeIsNoNumberRatherThanAThrowOrAClamp) {
    EXPECT_EQ(parse_int64("9223372036854775808"), std::nullopt);
    EXPECT_EQ(parse_int64("-9223372036854775809"), std::nullopt);
    EXPECT_EQ(parse_int64("99999999999999999999999"), std::nullopt);
}

TEST(ParseInt64, OneLeadingPlusUnlessRefused) {
    EXPECT_EQ(parse_int64("+3"), 3);
    EXPECT_EQ(parse_int64("+0"), 0);
    EXPECT_EQ(parse_int64("+3", kRefused), std::nullopt);
    EXPECT_EQ(parse_int64("-3", kRefused), -3);
    for (const char *text : {"+-1", "++1", "-+1", "+ 1", "+"}) {
        EXPECT_EQ(parse_int64(text), std::nullopt) << "'" << text << "'";
    }
}

TEST(ParseInt64, ReadsOnlyTheViewItIsGiven) {
    const std::string text = "1234";
    EXPECT_EQ(parse_int64(std::string_view(text).substr(0, 2)), 12);
    EXPECT_EQ(parse_int64(std::string_view(text).substr(0, 0)), std::nullopt);
}

TEST(ParseUint64, TheWholeUnsignedRange) {
    EXPECT_EQ(parse_uint64("0"), 0U);
    EXPECT_EQ(parse_uint64("18446744073709551615"), std::numeric_limits<uint64_t>::max());
    EXPECT_EQ(parse_uint64("18446744073709551616"), std::nullopt);
    EXPECT_EQ(parse_uint64("+5"), 5U);
    EXPECT_EQ(parse_uint64("+5", kRefused), std::nullopt);
}

TEST(ParseUint64, NoMinusEverWrapsAround) {
    // strtoull("-1") is 2^64 - 1; here a minus is simply not a number of this kind.
    EXPECT_EQ(parse_uint64("-1"), std::nullopt);
    EXPECT_EQ(parse_uint64("-0"), std::nullopt);
    EXPECT_EQ(parse_uint64(" 1"), std::nullopt);
    EXPECT_EQ(parse_uint64("1kB"), std::nullopt);
}

TEST(ParseDouble, DecimalAndScientificSpellings) {
    EXPECT_EQ(parse_double("0.5"), 0.5);
    EXPECT_EQ(parse_double("-2"), -2.0);
    EXPECT_EQ(parse_double(".5"), 0.5);
    EXPECT_EQ(parse_double("5."), 5.0);
    EXPECT_EQ(parse_double("1e-3"), 1e-3);
    EXPECT_EQ(parse_double("2E2"), 200.0);
    EXPECT_EQ(parse_double("+1.5"), 1.5);
    EXPECT_EQ(parse_double("+1.5", kRefused), std::nullopt);
    EXPECT_EQ(parse_double("1.7976931348623157e308"), std::numeric_limits<double>::max());
}

TEST(ParseDouble, OnlyFiniteNumbers) {
    for (const char *text :
         {"inf", "-inf", "infinity", "nan", "NaN", "nan(1)", "1e999", "-1e999"}) {
        EXPECT_EQ(parse_double(text), std::nullopt) << "'" << text << "'";
    }
}

TEST(ParseDouble, NoLocaleHexSpacesOrTrailingCharacters) {
    for (const char *text : {"", ".", "e3", "0,5", "0x1p3", "0x10", " 1", "1 ", "1\n", "1.5s", "1e",
                             "+-1", "--1", "1..2"}) {
        EXPECT_EQ(parse_double(text), std::nullopt) << "'" << text << "'";
    }
}

TEST(ParseOctal, MountinfoEscapes) {
    EXPECT_EQ(parse_octal("040"), 32U);  // a space
    EXPECT_EQ(parse_octal("134"), 92U);  // a backslash
    EXPECT_EQ(parse_octal("777"), 511U);
    for (const char *text : {"", "8", "09", "-1", "+1", "04 ", "0x1"}) {
        EXPECT_EQ(parse_octal(text), std::nullopt) << "'" << text << "'";
    }
}

}  // namespace
}  // namespace sbx::util
