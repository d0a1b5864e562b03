// Sizes, durations, bandwidths and fractions: what parses, to what, and what is rejected
// with a message that says what to write instead.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <sbx/units.hpp>

#include "util/units.hpp"

namespace sbx {
namespace {

constexpr uint64_t kKi = 1024;
constexpr uint64_t kMi = kKi * 1024;
constexpr uint64_t kGi = kMi * 1024;
constexpr uint64_t kTi = kGi * 1024;

std::string size_error(const std::string &text) {
    try {
        parse_size_bytes(text);
    } catch (const UnitError &error) {
        return error.what();
    }
    return "(accepted)";
}

TEST(ParseSize, BinaryIecUnits) {
    EXPECT_EQ(parse_size_bytes("64Ki"), 64 * kKi);
    EXPECT_EQ(parse_size_bytes("512Mi"), 512 * kMi);
    EXPECT_EQ(parse_size_bytes("1Gi"), kGi);
    EXPECT_EQ(parse_size_bytes("2Ti"), 2 * kTi);
    EXPECT_EQ(parse_size_bytes("512MiB"), 512 * kMi);
}

TEST(ParseSize, DockerStyleUnitsAreBinaryToo) {
    EXPECT_EQ(parse_size_bytes("512mb"), 512 * kMi);  // the original turned this into 0
    EXPECT_EQ(parse_size_bytes("512MB"), 512 * kMi);
    EXPECT_EQ(parse_size_bytes("512M"), 512 * kMi);
    EXPECT_EQ(parse_size_bytes("512m"), 512 * kMi);
    EXPECT_EQ(parse_size_bytes("1g"), kGi);
    EXPECT_EQ(parse_size_bytes("1G"), kGi);
    EXPECT_EQ(parse_size_bytes("1gb"), kGi);
    EXPECT_EQ(parse_size_bytes("64k"), 64 * kKi);
    EXPECT_EQ(parse_size_bytes("64K"), 64 * kKi);
    EXPECT_EQ(parse_size_bytes("64kb"), 64 * kKi);
    EXPECT_EQ(parse_size_bytes("64KB"), 64 * kKi);
    EXPECT_EQ(parse_size_bytes("1T"), kTi);
}

TEST(ParseSize, BareNumbersAreBytes) {
    EXPECT_EQ(parse_size_bytes("0"), 0u);
    EXPECT_EQ(parse_size_bytes("4096"), 4096u);
    EXPECT_EQ(parse_size_bytes("100B"), 100u);
    EXPECT_EQ(parse_size_bytes("18446744073709551615"), std::numeric_limits<uint64_t>::max());
}

TEST(ParseSize, DecimalsWithAUnit) {
    EXPECT_EQ(parse_size_bytes("1.5Gi"), kGi + kGi / 2);
    EXPECT_EQ(parse_size_bytes("0.5Mi"), kMi / 2);
    EXPECT_EQ(parse_size_bytes("0.1Ki"), 102u);  // the fraction of a byte is dropped
    EXPECT_EQ(parse_size_bytes("2.0"), 2u);
}

TEST(ParseSize, RejectsWithAHint) {
    EXPECT_EQ(size_error("512XB"),
              "'512XB' is not a size: write a number with a unit such as 64Ki, 512Mi, 1Gi "
              "(binary), 512M/512mb/1g (also binary, as Docker reads them) or a bare number of "
              "bytes");
    for (const char *bad : {"", "Mi", "-1Gi", "-5", "1.5", "1.", ".5Mi", "1 Gi", " 1Gi", "1Gi ",
                            "1e3", "+1Gi", "1Pi", "1Gib2", "0x10", "1,5Gi", "inf", "nan"}) {
        EXPECT_THROW(parse_size_bytes(bad), UnitError) << "'" << bad << "'";
    }
    EXPECT_NE(size_error("-1Gi").find("negative"), std::string::npos);
    EXPECT_NE(size_error("").find("empty"), std::string::npos);
    EXPECT_NE(size_error("1.5").find("whole number of bytes"), std::string::npos);
}

TEST(ParseSize, RejectsOverflow) {
    EXPECT_NE(size_error("18446744073709551616").find("too large"), std::string::npos);
    EXPECT_NE(size_error("16777216Ti").find("too large"), std::string::npos);
    EXPECT_EQ(parse_size_bytes("16777215Ti"), 16777215 * kTi);
}

TEST(ParseSize, ErrorSplitsIntoProblemAndHint) {
    try {
        parse_size_bytes("512XB");
        FAIL() << "accepted 512XB";
    } catch (const UnitError &error) {
        EXPECT_EQ(error.problem(), "'512XB' is not a size");
        EXPECT_EQ(error.hint().rfind("write a number with a unit", 0), 0u);
    }
    // UnitError is an invalid_argument, so generic callers can catch it as one.
    EXPECT_THROW(parse_size_bytes("x"), std::invalid_argument);
}

TEST(ParseDuration, Units) {
    EXPECT_DOUBLE_EQ(parse_duration_seconds("250ms"), 0.25);
    EXPECT_DOUBLE_EQ(parse_duration_seconds("30s"), 30.0);
    EXPECT_DOUBLE_EQ(parse_duration_seconds("5m"), 300.0);
    EXPECT_DOUBLE_EQ(parse_duration_seconds("1h"), 3600.0);
    EXPECT_DOUBLE_EQ(parse_duration_seconds("1.5s"), 1.5);
    EXPECT_DOUBLE_EQ(parse_duration_seconds("0.5h"), 1800.0);
    EXPECT_DOUBLE_EQ(parse_duration_seconds("45"), 45.0);
    EXPECT_DOUBLE_EQ(parse_duration_seconds("0"), 0.0);
}

TEST(ParseDuration, RejectsWithAHint) {
    for (const char *bad : {"", "10xs", "s", "-1s", "1S", "1 s", "1d", "1m30s", "1.s", "abc"}) {
        EXPECT_THROW(parse_duration_seconds(bad), UnitError) << "'" << bad << "'";
    }
    try {
        parse_duration_seconds("10xs");
    } catch (const UnitError &error) {
        EXPECT_STREQ(error.what(),
                     "'10xs' is not a duration: write a number with a unit such as 250ms, 30s, "
                     "5m or 1h, or a bare number of seconds");
    }
}

TEST(ParseBandwidth, DecimalBits) {
    EXPECT_DOUBLE_EQ(parse_bandwidth_bits_per_second("500kbps"), 500e3);
    EXPECT_DOUBLE_EQ(parse_bandwidth_bits_per_second("10mbps"), 10e6);
    EXPECT_DOUBLE_EQ(parse_bandwidth_bits_per_second("10Mbps"), 10e6);
    EXPECT_DOUBLE_EQ(parse_bandwidth_bits_per_second("1gbps"), 1e9);
    EXPECT_DOUBLE_EQ(parse_bandwidth_bits_per_second("1.5mbps"), 1.5e6);
    EXPECT_DOUBLE_EQ(parse_bandwidth_bits_per_second("9600"), 9600.0);
    for (const char *bad : {"", "10MBps", "10mb", "-1mbps", "fast", "10 mbps"}) {
        EXPECT_THROW(parse_bandwidth_bits_per_second(bad), UnitError) << "'" << bad << "'";
    }
}

// The grammar is the SDK's (sbx/units.hpp), which the injectors read presets with: the host
// and a plugin agree on every spelling, also on a number too long for a double, which both
// refuse (it once read as 0 bits per second on the host).
TEST(ParseBandwidth, HostAndSdkGrammarAgree) {
    const std::string too_long(400, '9');
    for (const std::string &text :
         std::vector<std::string>{"500kbps", "1.5mbps", "9600", "10MBps", "-1mbps", "1.mbps", "",
                                  too_long, too_long + "mbps"}) {
        const auto sdk = units::parse_bandwidth(text);
        try {
            EXPECT_EQ(sdk, std::optional<double>(parse_bandwidth_bits_per_second(text))) << text;
        } catch (const UnitError &) {
            EXPECT_FALSE(sdk.has_value()) << text;
        }
    }
    // Agreement alone would hold if both read it as 0: each refuses it on its own.
    EXPECT_FALSE(units::parse_bandwidth(too_long).has_value());
    EXPECT_THROW(parse_bandwidth_bits_per_second(too_long + "mbps"), UnitError);
    EXPECT_THROW(parse_duration_seconds(too_long + "s"), UnitError);
    EXPECT_THROW(parse_fraction(too_long + "%"), UnitError);
}

// Found by tests/fuzz/fuzz_units: 308 digits are a finite double, but not once a unit
// scales them; that must be an error, not an infinite duration or bandwidth.
TEST(ParseDuration, RejectsWhatAUnitScalesPastTheLargestNumber) {
    const std::string largest_finite = std::string(308, '9');
    EXPECT_TRUE(std::isfinite(parse_duration_seconds(largest_finite + "s")));
    for (const char *unit : {"m", "h"}) {
        try {
            parse_duration_seconds(largest_finite + unit);
            ADD_FAILURE() << "an infinite duration was accepted for unit " << unit;
        } catch (const UnitError &e) {
            EXPECT_EQ(e.problem(), "'" + largest_finite + unit + "' is too long a duration");
        }
    }
    EXPECT_THROW(parse_bandwidth_bits_per_second(largest_finite + "gbps"), UnitError);
    EXPECT_FALSE(units::parse_bandwidth(largest_finite + "gbps").has_value());
}

TEST(ParseFraction, PlainAndPercent) {
    EXPECT_DOUBLE_EQ(parse_fraction("0.05"), 0.05);
    EXPECT_DOUBLE_EQ(parse_fraction("5%"), 0.05);
    EXPECT_DOUBLE_EQ(parse_fraction("0"), 0.0);
    EXPECT_DOUBLE_EQ(parse_fraction("1"), 1.0);
    EXPECT_DOUBLE_EQ(parse_fraction("100%"), 1.0);
    EXPECT_DOUBLE_EQ(parse_fraction("12.5%"), 0.125);
    for (const char *bad : {"", "1.5", "150%", "-0.1", "5 %", "half", "0.5x"}) {
        EXPECT_THROW(parse_fraction(bad), UnitError) << "'" << bad << "'";
    }
}

TEST(TimeoutMilliseconds, NeverZeroNorOverflowing) {
    EXPECT_EQ(timeout_milliseconds(1.5), 1500);
    // 0.1ms became 0, which means "no timeout"; 3.6e19 s overflowed int64_t (UB).
    EXPECT_EQ(timeout_milliseconds(parse_duration_seconds("0.1ms")), 1);
    EXPECT_EQ(timeout_milliseconds(parse_duration_seconds("9999999999999999h")), 1000000000000000);
}

TEST(FormatSize, LargestBinaryUnit) {
    EXPECT_EQ(format_size(0), "0B");
    EXPECT_EQ(format_size(100), "100B");
    EXPECT_EQ(format_size(64 * kKi), "64Ki");
    EXPECT_EQ(format_size(512 * kMi), "512Mi");
    EXPECT_EQ(format_size(kGi + kGi / 2), "1.5Gi");
    EXPECT_EQ(format_size(2048 * kTi), "2048Ti");
    EXPECT_EQ(format_size(1500), "1.46Ki");
}

TEST(FormatSize, RoundTrips) {
    for (uint64_t bytes :
         {uint64_t{0}, uint64_t{1}, 64 * kKi, 512 * kMi, 3 * kGi, kGi / 2 * 3, 7 * kTi}) {
        EXPECT_EQ(parse_size_bytes(format_size(bytes)), bytes) << format_size(bytes);
    }
}

// Found by tests/fuzz/fuzz_units: a size just under 2^64 bytes was printed rounded up to
// "16777216Ti", which is 2^64 bytes and does not parse back.
TEST(FormatSize, TheLargestSizesParseBack) {
    for (uint64_t bytes : {uint64_t{18446744073709551417u}, std::numeric_limits<uint64_t>::max(),
                           std::numeric_limits<uint64_t>::max() - kTi}) {
        const std::string text = format_size(bytes);
        EXPECT_NO_THROW(parse_size_bytes(text)) << text;
    }
    EXPECT_EQ(format_size(18446744073709551417u), "16777215.99Ti");
    EXPECT_EQ(format_size(std::numeric_limits<uint64_t>::max()), "16777215.99Ti");
    EXPECT_EQ(format_size(16777215 * kTi), "16777215Ti");
}

TEST(FormatDuration, LargestEvenUnit) {
    EXPECT_EQ(format_duration(0), "0s");
    EXPECT_EQ(format_duration(0.25), "250ms");
    EXPECT_EQ(format_duration(1.5), "1.5s");
    EXPECT_EQ(format_duration(30), "30s");
    EXPECT_EQ(format_duration(90), "90s");
    EXPECT_EQ(format_duration(300), "5m");
    EXPECT_EQ(format_duration(3600), "1h");
    EXPECT_EQ(format_duration(7200), "2h");
    for (double seconds : {0.25, 1.5, 30.0, 90.0, 300.0, 3600.0}) {
        EXPECT_DOUBLE_EQ(parse_duration_seconds(format_duration(seconds)), seconds);
    }
}

}  // namespace
}  // namespace sbx
