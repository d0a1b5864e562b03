// Calendar dates without <chrono>'s C++20 calendar: days since 1970-01-01 to and from
// "YYYY-MM-DD" (proleptic Gregorian), so seeded dates are the same on every library.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace sbx::support {

// Howard Hinnant's days_from_civil: the day number of y-m-d, 1970-01-01 being 0.
constexpr int64_t days_from_civil(int64_t y, int64_t m, int64_t d) {
    y -= m <= 2 ? 1 : 0;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const int64_t yoe = y - era * 400;
    const int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static_assert(days_from_civil(1970, 1, 1) == 0, "days_from_civil changed");
static_assert(days_from_civil(2037, 12, 31) == 24836, "days_from_civil changed");

// Howard Hinnant's civil_from_days, written as "YYYY-MM-DD".
inline std::string iso_date(int64_t days) {
    const int64_t z = days + 719468;
    const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const int64_t doe = z - era * 146097;
    const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const int64_t mp = (5 * doy + 2) / 153;
    const int64_t d = doy - (153 * mp + 2) / 5 + 1;
    const int64_t m = mp < 10 ? mp + 3 : mp - 9;
    const int64_t y = yoe + era * 400 + (m <= 2 ? 1 : 0);
    char text[64];  // room for any int64 year, so the format cannot truncate
    std::snprintf(text, sizeof text, "%04lld-%02lld-%02lld", static_cast<long long>(y),
                  static_cast<long long>(m), static_cast<long long>(d));
    return text;
}

}  // namespace sbx::support
