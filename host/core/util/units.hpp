// Strict parsers for the units users write in settings and presets (sizes, durations,
// bandwidths, fractions), and formatters that print them back the same way in messages.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace sbx {

// A value that is not a well-formed quantity. what() is one sentence, "<problem>: <hint>",
// e.g. "'512XB' is not a size: write a number with a unit such as 64Ki, ...". Callers that
// prefix a file:line:column may join problem() and hint() their own way.
class UnitError : public std::invalid_argument {
  public:
    UnitError(std::string problem, std::string hint);
    // What is wrong, e.g. "'512XB' is not a size".
    const std::string &problem() const { return problem_; }
    // What to write instead, e.g. "write a number with a unit such as 64Ki, ...".
    const std::string &hint() const { return hint_; }

  private:
    std::string problem_;
    std::string hint_;
};

// Bytes. Binary units throughout, as Docker reads them: Ki/Mi/Gi/Ti (also KiB..TiB) and
// K/M/G/T, k/m/g/t, kb/mb/gb/tb, KB/MB/GB/TB are all powers of 1024; B or no unit is
// bytes. Decimals are allowed with a unit (1.5Gi; the fraction of a byte is dropped) but
// a bare number of bytes must be whole. Negative, empty and >= 2^64 values are errors.
uint64_t parse_size_bytes(std::string_view text);

// Seconds, from 250ms, 30s, 5m, 1h or a bare number of seconds; decimals allowed (1.5s).
double parse_duration_seconds(std::string_view text);

// Whole milliseconds of a positive duration, for timeouts: at least 1 (a sub-millisecond
// timeout must not become 0, which means "no timeout") and capped at about 31700 years
// (a huge duration must not overflow int64_t, which is undefined behaviour).
int64_t timeout_milliseconds(double seconds);

// Bits per second, from kbps, mbps, gbps (decimal: 1mbps = 1e6 bit/s; Kbps, Mbps, Gbps
// are accepted too) or a bare number of bits per second.
double parse_bandwidth_bits_per_second(std::string_view text);

// A fraction in [0, 1], written as 0.05 or as a percentage "5%".
double parse_fraction(std::string_view text);

// "512Mi", "1.5Gi", "100B": the largest binary unit, at most two decimals. Parses back
// with parse_size_bytes (up to the rounding of the decimals).
std::string format_size(uint64_t bytes);

// "250ms", "1.5s", "5m", "1h": the largest unit that divides the value evenly (seconds
// with decimals otherwise). Parses back with parse_duration_seconds.
std::string format_duration(double seconds);

}  // namespace sbx
