// Random values by slot type for the random stub: bounded numbers, printable strings,
// small JSON objects, dates 1970–2037 and well-formed emails, URLs, names and paths.
#include "random_values.hpp"

#include <sbx/plugin.hpp>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>

#include "support/civil_date.hpp"

namespace sbx_random {
namespace {

using nlohmann::json;

constexpr int64_t kDefaultSpan = 1000;       // unbounded numbers fall in [-1000, 1000]
constexpr int64_t kMaxStringLength = 65536;  // a huge `max` must not exhaust memory
constexpr int64_t kLastDay = 24836;          // 2037-12-31, days after 1970-01-01

const char *const kTlds[] = {"com", "org", "net", "io"};

std::string letters(Rng &rng, int64_t lo, int64_t hi) {
    std::string s(static_cast<std::size_t>(rng.between(lo, hi)), 'a');
    for (char &c : s) {
        c = static_cast<char>('a' + rng.below(26));
    }
    return s;
}

std::string printable(Rng &rng, int64_t lo, int64_t hi) {
    std::string s(static_cast<std::size_t>(rng.between(lo, hi)), ' ');
    for (char &c : s) {
        c = static_cast<char>(' ' + rng.below(95));  // 0x20..0x7E
    }
    return s;
}

std::string capitalized(Rng &rng) {
    std::string s = letters(rng, 2, 8);
    s[0] = static_cast<char>(s[0] - 'a' + 'A');
    return s;
}

std::string tld(Rng &rng) {
    return kTlds[rng.below(std::size(kTlds))];
}

// The slot's `key` bound, or false when absent; a bound that is not a number is invalid.
bool bound(const json &slot, const char *key, json &out) {
    const auto it = slot.find(key);
    if (it == slot.end() || it->is_null()) {
        return false;
    }
    if (!it->is_number()) {
        throw sbx::Error(SBX_INVALID, std::string("random: slot ") + key + " must be a number");
    }
    out = *it;
    return true;
}

// An integer bound: integers exactly, fractions rounded inwards, clamped into int64.
int64_t int_bound(const json &value, bool is_min) {
    if (value.is_number_integer()) {
        return value.is_number_unsigned() && value.get<uint64_t>() > INT64_MAX
                   ? INT64_MAX
                   : value.get<int64_t>();
    }
    constexpr double kLimit = 9.2e18;  // inside int64 after rounding, so the cast is defined
    const double d = value.get<double>();
    return static_cast<int64_t>(std::clamp(is_min ? std::ceil(d) : std::floor(d), -kLimit, kLimit));
}

int64_t saturating_add(int64_t a, int64_t b) {
    if (b > 0 && a > INT64_MAX - b) {
        return INT64_MAX;
    }
    if (b < 0 && a < INT64_MIN - b) {
        return INT64_MIN;
    }
    return a + b;
}

// [lo, hi] from the slot's min/max. A missing side takes the default unless that would
// invert the range; then it lies the default span away from the given side.
void int_range(const json &slot, int64_t &lo, int64_t &hi, int64_t default_lo, int64_t default_hi) {
    json min;
    json max;
    const bool has_min = bound(slot, "min", min);
    const bool has_max = bound(slot, "max", max);
    lo = has_min ? int_bound(min, true) : default_lo;
    hi = has_max ? int_bound(max, false) : default_hi;
    const int64_t span = default_hi - default_lo;
    if (has_min && !has_max && hi < lo) {
        hi = saturating_add(lo, span);
    } else if (has_max && !has_min && lo > hi) {
        lo = saturating_add(hi, -span);
    }
    if (lo > hi) {
        throw sbx::Error(SBX_INVALID, "random: slot min is above its max");
    }
}

json random_int(const json &slot, Rng &rng) {
    int64_t lo = 0;
    int64_t hi = 0;
    int_range(slot, lo, hi, -kDefaultSpan, kDefaultSpan);
    return rng.between(lo, hi);
}

json random_float(const json &slot, Rng &rng) {
    const double span = 2.0 * static_cast<double>(kDefaultSpan);
    json min;
    json max;
    const bool has_min = bound(slot, "min", min);
    const bool has_max = bound(slot, "max", max);
    double lo = has_min ? min.get<double>() : -static_cast<double>(kDefaultSpan);
    double hi = has_max ? max.get<double>() : static_cast<double>(kDefaultSpan);
    if (has_min && !has_max && hi < lo) {
        hi = lo + span;
    } else if (has_max && !has_min && lo > hi) {
        lo = hi - span;
    }
    if (lo > hi) {
        throw sbx::Error(SBX_INVALID, "random: slot min is above its max");
    }
    // Interpolated rather than lo + u * (hi - lo), which overflows for extreme bounds.
    const double u = rng.unit();
    return std::clamp(lo * (1.0 - u) + hi * u, lo, hi);
}

json random_string(const json &slot, Rng &rng) {
    // For text, min/max bound the length; the default is 0–32 characters.
    int64_t lo = 0;
    int64_t hi = 0;
    int_range(slot, lo, hi, 0, 32);
    lo = std::clamp<int64_t>(lo, 0, kMaxStringLength);
    hi = std::clamp<int64_t>(hi, lo, kMaxStringLength);
    return printable(rng, lo, hi);
}

json random_json(Rng &rng, int depth) {
    json object = json::object();
    const auto fields = rng.below(5);
    for (uint64_t i = 0; i < fields; ++i) {
        const std::string key = letters(rng, 1, 8);
        switch (rng.below(depth < 1 ? 6 : 5)) {
            case 0:
                object[key] = rng.between(-kDefaultSpan, kDefaultSpan);
                break;
            case 1:
                object[key] = rng.unit() * static_cast<double>(kDefaultSpan);
                break;
            case 2:
                object[key] = rng.below(2) == 1;
                break;
            case 3:
                object[key] = nullptr;
                break;
            case 4:
                object[key] = printable(rng, 0, 12);
                break;
            default:
                object[key] = random_json(rng, depth + 1);
                break;
        }
    }
    return object;
}

std::string hex_bytes(Rng &rng) {
    static const char kHex[] = "0123456789abcdef";
    std::string s(2 * static_cast<std::size_t>(rng.between(0, 32)), '0');
    for (char &c : s) {
        c = kHex[rng.below(16)];
    }
    return s;
}

}  // namespace

json random_value(const json &slot, Rng &rng) {
    const auto type_it = slot.is_object() ? slot.find("type") : slot.end();
    const std::string type =
        type_it != slot.end() && type_it->is_string() ? type_it->get<std::string>() : "string";
    const json &bounds = slot.is_object() ? slot : json::object();
    if (type == "int") {
        return random_int(bounds, rng);
    }
    if (type == "float") {
        return random_float(bounds, rng);
    }
    if (type == "bool") {
        return rng.below(2) == 1;
    }
    if (type == "json") {
        return random_json(rng, 0);
    }
    if (type == "date") {
        return sbx::support::iso_date(rng.between(0, kLastDay));
    }
    if (type == "email") {
        return letters(rng, 1, 10) + "@" + letters(rng, 2, 10) + "." + tld(rng);
    }
    if (type == "url") {
        return "https://" + letters(rng, 2, 10) + "." + tld(rng) + "/" + letters(rng, 0, 10);
    }
    if (type == "name") {
        return capitalized(rng) + " " + capitalized(rng);
    }
    if (type == "path") {
        // Relative, so a random path stays inside the workspace.
        return letters(rng, 1, 8) + "/" + letters(rng, 1, 8) + ".txt";
    }
    if (type == "bytes") {
        return hex_bytes(rng);  // hex keeps arbitrary bytes valid in JSON text
    }
    if (type == "list") {
        // One to three arguments of printable text (a list slot has no min/max).
        json list = json::array();
        for (auto n = rng.between(1, 3); n > 0; --n) {
            list.push_back(random_string(json::object(), rng));
        }
        return list;
    }
    if (type == "enum") {
        const auto values = bounds.find("values");
        if (values == bounds.end() || !values->is_array() || values->empty()) {
            return "";  // as the signature strategy: no values, no choice
        }
        return (*values)[static_cast<std::size_t>(rng.below(values->size()))];
    }
    return random_string(bounds, rng);
}

}  // namespace sbx_random
