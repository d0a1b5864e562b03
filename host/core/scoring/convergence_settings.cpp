#include "scoring/convergence_settings.hpp"

#include <string>

#include "util/errors.hpp"
#include "util/number_parse.hpp"

namespace sbx::scoring {
namespace {

const char *lookup(const std::function<const char *(const char *)> &getenv, const char *name) {
    const char *value = getenv(name);
    return (value == nullptr || *value == '\0') ? nullptr : value;
}

[[noreturn]] void fail(const char *name, const char *value, const std::string &problem,
                       const std::string &example) {
    throw InputError(std::string("environment variable ") + name + "='" + value + "': " + problem +
                     "; write e.g. " + name + "=" + example);
}

int whole_number(const char *name, const char *value, long long low, long long high,
                 const std::string &example) {
    const auto number = util::parse_int64(value);
    if (!number || *number < low || *number > high) {
        fail(name, value,
             "must be a whole number from " + std::to_string(low) + " to " + std::to_string(high),
             example);
    }
    return static_cast<int>(*number);
}

double confidence(const char *name, const char *value) {
    const auto number = util::parse_double(value);
    if (!number || !(*number > 0 && *number < 1)) {
        fail(name, value, "must be a confidence between 0 and 1 (exclusive)", "0.95");
    }
    return *number;
}

}  // namespace

ConvergenceSettings convergence_settings_from_environment(
    const std::function<const char *(const char *)> &getenv) {
    ConvergenceSettings settings;
    if (const char *value = lookup(getenv, "SYNERGY_MA_WINDOW")) {
        settings.synergy_window =
            static_cast<size_t>(whole_number("SYNERGY_MA_WINDOW", value, 2, 1000, "5"));
    }
    if (const char *value = lookup(getenv, "SYNERGY_STATIONARITY_CONFIDENCE")) {
        settings.stationarity_confidence = confidence("SYNERGY_STATIONARITY_CONFIDENCE", value);
    }
    if (const char *value = lookup(getenv, "SYNERGY_VARIANCE_CONFIDENCE")) {
        settings.variance_confidence = confidence("SYNERGY_VARIANCE_CONFIDENCE", value);
    }
    if (const char *value = lookup(getenv, "SYNERGY_CYCLES")) {
        settings.synergy_cycles = whole_number("SYNERGY_CYCLES", value, 1, 1000000, "3");
    }
    if (const char *value = lookup(getenv, "SYNERGY_THRESHOLD")) {
        const auto number = util::parse_double(value);
        if (!number || *number < 0) {
            fail("SYNERGY_THRESHOLD", value, "must be a number of at least 0", "0.01");
        }
        settings.synergy_threshold = *number;
    }
    if (const char *value = lookup(getenv, "SYNERGY_THRESHOLD_WINDOW")) {
        settings.synergy_threshold_window =
            static_cast<size_t>(whole_number("SYNERGY_THRESHOLD_WINDOW", value, 2, 1000, "5"));
    }
    if (const char *value = lookup(getenv, "SYNERGY_THRESHOLD_WEIGHT")) {
        const auto number = util::parse_double(value);
        if (!number || !(*number > 0 && *number <= 1)) {
            fail("SYNERGY_THRESHOLD_WEIGHT", value,
                 "must be the weight of the newest value, above 0 and at most 1", "0.3");
        }
        settings.synergy_threshold_weight = *number;
    }
    if (const char *value = lookup(getenv, "SYNERGY_CONFIDENCE")) {
        settings.synergy_confidence = confidence("SYNERGY_CONFIDENCE", value);
    }
    if (const char *value = lookup(getenv, "ENTROPY_PLATEAU_THRESHOLD")) {
        const auto number = util::parse_double(value);
        if (!number || *number < 0) {
            fail("ENTROPY_PLATEAU_THRESHOLD", value, "must be a number of at least 0", "0.01");
        }
        settings.entropy_plateau_threshold = *number;
    }
    if (const char *value = lookup(getenv, "ENTROPY_PLATEAU_CONSECUTIVE")) {
        settings.entropy_plateau_consecutive =
            whole_number("ENTROPY_PLATEAU_CONSECUTIVE", value, 1, 1000000, "3");
    }
    return settings;
}

}  // namespace sbx::scoring
