#include "presets/preset_ladders.hpp"

#include <optional>

#include <sbx/units.hpp>

namespace sbx::presets {
namespace {

using nlohmann::json;

// A rung or preset value as a number on the key's scale; nullopt when it is not one.
std::optional<double> magnitude(const std::string &key, const json &value) {
    if (!value.is_string() && !value.is_number()) {
        return std::nullopt;
    }
    const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
    if (key == "MEMORY_LIMIT") {
        const auto bytes = units::parse_size(text);
        return bytes ? std::optional(static_cast<double>(*bytes)) : std::nullopt;
    }
    if (key.find("BANDWIDTH") != std::string::npos) {
        return units::parse_bandwidth(text);
    }
    const auto parsed = units::number_and_unit(text);
    return parsed && parsed->second.empty() ? std::optional(parsed->first) : std::nullopt;
}

// True when `a` is harsher than `b` on the ladder (less is harsher where the rungs fall).
bool harsher_than(const Ladder &ladder, double a, double b) {
    const double first = *magnitude(ladder.key, ladder.rungs.front());
    const double last = *magnitude(ladder.key, ladder.rungs.back());
    return last > first ? a > b : a < b;
}

// The rung one step from `value` toward `step`, or nullopt at the ladder's end.
std::optional<std::string> next_rung(const Ladder &ladder, double value, Step step) {
    const auto beyond = [&](double rung) {
        return step == Step::harsher ? harsher_than(ladder, rung, value)
                                     : harsher_than(ladder, value, rung);
    };
    if (step == Step::harsher) {
        for (const auto &rung : ladder.rungs) {
            if (beyond(*magnitude(ladder.key, rung))) {
                return rung;
            }
        }
    } else {
        for (auto rung = ladder.rungs.rbegin(); rung != ladder.rungs.rend(); ++rung) {
            if (beyond(*magnitude(ladder.key, *rung))) {
                return *rung;
            }
        }
    }
    return std::nullopt;
}

// After BANDWIDTH_LIMIT moved: the bound it crossed follows it.
void keep_bandwidth_bounds(json &preset) {
    const auto limit = magnitude("BANDWIDTH_LIMIT", preset["BANDWIDTH_LIMIT"]);
    if (!limit) {
        return;
    }
    for (const auto &[bound, below] :
         {std::pair("MIN_BANDWIDTH", true), {"MAX_BANDWIDTH", false}}) {
        if (!preset.contains(bound)) {
            continue;
        }
        const auto value = magnitude(bound, preset[bound]);
        if (value && (below ? *value > *limit : *value < *limit)) {
            preset[bound] = preset["BANDWIDTH_LIMIT"];
        }
    }
}

}  // namespace

const char *step_name(Step step) {
    switch (step) {
        case Step::milder:
            return "milder";
        case Step::keep:
            return "keep";
        case Step::harsher:
            return "harsher";
    }
    return "keep";
}

bool parse_step(const std::string &text, Step &step) {
    for (const Step candidate : {Step::milder, Step::keep, Step::harsher}) {
        if (text == step_name(candidate)) {
            step = candidate;
            return true;
        }
    }
    return false;
}

const std::vector<Ladder> &ladders() {
    static const std::vector<Ladder> all = {
        {"CPU_LIMIT", {"8", "4", "2", "1", "0.5"}},
        {"MEMORY_LIMIT", {"4096Mi", "2048Mi", "1024Mi", "512Mi", "256Mi", "128Mi"}},
        {"BANDWIDTH_LIMIT", {"100mbps", "50mbps", "10mbps", "5mbps", "1mbps"}},
        {"NETWORK_LATENCY_MS", {"10", "50", "100", "200", "500"}},
        {"THREAT_INTENSITY", {"10", "30", "50", "70", "90"}},
    };
    return all;
}

StepResult step_key(json &preset, const Ladder &ladder, Step step) {
    StepResult result;
    if (!preset.contains(ladder.key)) {
        result.note = "not set";
        return result;
    }
    auto &value = preset[ladder.key];
    result.from = value.is_string() ? value.get<std::string>() : value.dump();
    result.to = result.from;
    if (step == Step::keep) {
        return result;
    }
    const auto current = magnitude(ladder.key, value);
    if (!current) {
        result.note = "not a value the ladder reads";
        return result;
    }
    const auto next = next_rung(ladder, *current, step);
    if (!next) {
        result.note = step == Step::harsher ? "at the harshest rung" : "at the mildest rung";
        return result;
    }
    value = *next;
    result.to = *next;
    result.changed = true;
    if (ladder.key == "BANDWIDTH_LIMIT") {
        keep_bandwidth_bounds(preset);
    }
    return result;
}

}  // namespace sbx::presets
