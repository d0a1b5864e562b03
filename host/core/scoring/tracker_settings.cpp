// Tracker settings from environment variables, rejected precisely when malformed.
#include "scoring/tracker_settings.hpp"

#include <limits>
#include <string>

#include "util/errors.hpp"
#include "util/number_parse.hpp"

namespace sbx::scoring {

namespace {

[[noreturn]] void fail(const char *name, const char *value, const std::string &problem,
                       const std::string &hint) {
    throw InputError(std::string("environment variable ") + name + "='" + value + "': " + problem +
                     "; " + hint);
}

// The value of `name`, or nullptr when it is unset or empty.
const char *lookup(const std::function<const char *(const char *)> &getenv, const char *name) {
    const char *value = getenv(name);
    return (value == nullptr || *value == '\0') ? nullptr : value;
}

double non_negative_number(const char *name, const char *value, const std::string &example) {
    auto number = util::parse_double(value);
    if (!number || *number < 0) {
        fail(name, value, "must be a number of at least 0",
             std::string("write e.g. ") + name + "=" + example);
    }
    return *number;
}

}  // namespace

TrackerSettings tracker_settings_from_environment(
    const std::function<const char *(const char *)> &getenv) {
    TrackerSettings settings;
    for (const char *name : {"SANDBOX_ROI_TOLERANCE", "ROI_THRESHOLD"}) {
        if (const char *value = lookup(getenv, name)) {
            settings.tolerance = non_negative_number(name, value, "0.01");
            break;
        }
    }
    if (const char *value = lookup(getenv, "ROI_CYCLES")) {
        auto cycles = util::parse_int64(value);
        if (!cycles || *cycles < 1 || *cycles > std::numeric_limits<int>::max()) {
            fail("ROI_CYCLES", value, "must be a whole number of at least 1",
                 "set it to how many consecutive cycles a module must stay within the "
                 "tolerance to converge, e.g. ROI_CYCLES=3");
        }
        settings.roi_cycles = static_cast<int>(*cycles);
    }
    if (const char *value = lookup(getenv, "ROI_CONFIDENCE")) {
        const auto number = util::parse_double(value);
        if (!number || !(*number > 0 && *number < 1)) {
            fail("ROI_CONFIDENCE", value, "must be a confidence between 0 and 1 (exclusive)",
                 "write e.g. ROI_CONFIDENCE=0.95");
        }
        settings.roi_confidence = *number;
    }
    if (const char *value = lookup(getenv, "ENTROPY_THRESHOLD")) {
        settings.entropy_threshold =
            non_negative_number("ENTROPY_THRESHOLD", value, "0.05 (0 turns the ceiling off)");
    }
    return settings;
}

}  // namespace sbx::scoring
