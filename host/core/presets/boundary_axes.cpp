#include "presets/boundary_axes.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "util/errors.hpp"
#include "util/number_parse.hpp"

namespace sbx::presets {
namespace {
constexpr double kMaxGridSettings = 100000;
}  // namespace

const std::vector<BoundaryAxis> &builtin_axes() {
    static const std::vector<BoundaryAxis> axes = {
        {"CONCURRENCY_LEVEL", 1, 64, 1, false, true, ""},
        {"MEMORY_LIMIT", 1024, 4, 1.1, true, true, "Mi"},
        {"CPU_LIMIT", 2, 0.05, 0.05, false, false, ""},
        {"API_LATENCY_MS", 0, 10000, 50, false, true, ""},
        {"NETWORK_LATENCY_MS", 0, 5000, 25, false, true, ""},
        {"PACKET_LOSS", 0, 0.5, 0.02, false, false, ""},
        {"THREAD_BURST", 0, 256, 1, false, true, ""},
    };
    return axes;
}

std::vector<std::string> default_axis_keys() {
    return {"CONCURRENCY_LEVEL", "MEMORY_LIMIT", "CPU_LIMIT"};
}

BoundaryAxis parse_axis(const std::string &spec) {
    std::vector<std::string> parts;
    size_t start = 0;
    while (true) {
        const size_t colon = spec.find(':', start);
        parts.push_back(spec.substr(start, colon - start));
        if (colon == std::string::npos) {
            break;
        }
        start = colon + 1;
    }
    const auto fail = [&](const std::string &problem) {
        throw InputError("--axis " + spec + ": " + problem +
                         "; write a built-in axis (CONCURRENCY_LEVEL, MEMORY_LIMIT, CPU_LIMIT, "
                         "API_LATENCY_MS, NETWORK_LATENCY_MS, PACKET_LOSS, THREAD_BURST) or "
                         "KEY:MILD:HARSH[:PRECISION], e.g. --axis LOAD:0:100:1");
    };
    const std::string &key = parts[0];
    if (key.empty()) {
        fail("the key is empty");
    }
    BoundaryAxis axis;
    bool builtin = false;
    for (const auto &known : builtin_axes()) {
        if (known.key == key) {
            axis = known;
            builtin = true;
        }
    }
    if (parts.size() == 1) {
        if (!builtin) {
            fail("'" + key + "' is not a built-in axis, so it needs its range");
        }
        return axis;
    }
    if (parts.size() < 3 || parts.size() > 4) {
        fail("give the key alone or KEY:MILD:HARSH[:PRECISION]");
    }
    const auto number = [&](const std::string &text, const char *what) {
        const auto value = util::parse_double(text);
        if (!value) {
            fail(std::string(what) + " '" + text + "' is not a number");
        }
        return value.value_or(0.0);  // fail() threw when there is none
    };
    if (!builtin) {
        axis = BoundaryAxis{key, 0, 0, 1, false, false, ""};
    }
    axis.mild = number(parts[1], "MILD");
    axis.harsh = number(parts[2], "HARSH");
    if (axis.mild == axis.harsh) {
        fail("MILD and HARSH are the same value");
    }
    if (parts.size() == 4) {
        axis.precision = number(parts[3], "PRECISION");
    } else if (!builtin) {
        axis.precision = std::fabs(axis.harsh - axis.mild) / 100;
    }
    if (!(axis.precision > 0) || (axis.geometric && !(axis.precision > 1))) {
        fail(axis.geometric ? "a size axis's PRECISION is a ratio above 1, e.g. 1.1"
                            : "PRECISION must be above 0");
    }
    if (axis.geometric && !(axis.mild > 0 && axis.harsh > 0)) {
        fail("a size axis needs MILD and HARSH above 0");
    }
    const auto whole = [](double value) { return std::floor(value) == value; };
    if (!builtin) {
        axis.integer = whole(axis.mild) && whole(axis.harsh) && whole(axis.precision);
    } else if (axis.integer &&
               !(whole(axis.mild) && whole(axis.harsh) &&
                 (axis.geometric || (whole(axis.precision) && axis.precision >= 1)))) {
        fail(key + " takes whole numbers: MILD, HARSH and PRECISION");
    }
    // The grid a scan walks, and so the bisection's depth, stays countable.
    const double settings =
        axis.geometric
            ? std::log(std::max(axis.mild, axis.harsh) / std::min(axis.mild, axis.harsh)) /
                  std::log(axis.precision)
            : std::fabs(axis.harsh - axis.mild) / axis.precision;
    if (!(settings <= kMaxGridSettings)) {
        fail("PRECISION makes a grid of more than " +
             std::to_string(static_cast<long>(kMaxGridSettings)) + " settings; take a coarser one");
    }
    return axis;
}

std::string axis_value_text(const BoundaryAxis &axis, double value) {
    char text[48];
    if (axis.integer) {
        std::snprintf(text, sizeof text, "%lld", static_cast<long long>(std::llround(value)));
    } else {
        std::snprintf(text, sizeof text, "%.6g", value);
    }
    return text + axis.unit;
}

bool at_least_as_harsh(const BoundaryAxis &axis, double value, double than) {
    return axis.harsh > axis.mild ? value >= than : value <= than;
}

}  // namespace sbx::presets
