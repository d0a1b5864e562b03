#include "plugins/answer_contract.hpp"

#include <cstdio>

#include "plugins/schema_validator.hpp"
#include "util/errors.hpp"

namespace sbx::plugins {
namespace schemas {
extern const char *const kCollectAnswerV1;
extern const char *const kPredictAnswerV1;
}  // namespace schemas

namespace {

using nlohmann::json;

// Parsed once, shared by every worker thread (validation only reads a schema).
const CompiledSchema &schema_of(AnswerKind kind) {
    static const CompiledSchema collect(json::parse(schemas::kCollectAnswerV1),
                                        "metrics.collect.answer.v1.json");
    static const CompiledSchema predict(json::parse(schemas::kPredictAnswerV1),
                                        "predictor.predict.answer.v1.json");
    return kind == AnswerKind::collect ? collect : predict;
}

std::string number_text(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

// What the schema cannot say about a forecast: the interval holds the value, and the value
// lies where the series can go.
std::string forecast_problem(const json &answer, std::optional<std::pair<double, double>> range) {
    const auto number = [&](const char *key) -> std::optional<double> {
        const auto found = answer.find(key);
        return found != answer.end() && found->is_number()
                   ? std::optional<double>(found->get<double>())
                   : std::nullopt;
    };
    const auto value = number("value");
    const auto lower = number("lower");
    const auto upper = number("upper");
    if (lower && upper && *lower > *upper) {
        return "lower " + number_text(*lower) + " is above upper " + number_text(*upper);
    }
    if (value && lower && *value < *lower) {
        return "value " + number_text(*value) + " is below lower " + number_text(*lower);
    }
    if (value && upper && *value > *upper) {
        return "value " + number_text(*value) + " is above upper " + number_text(*upper);
    }
    if (value && range && (*value < range->first || *value > range->second)) {
        return "value " + number_text(*value) + " is outside [" + number_text(range->first) + ", " +
               number_text(range->second) + "], where the series lies";
    }
    return "";
}

std::string excerpt(const std::string &text) {
    constexpr std::size_t kShown = 200;
    return text.size() <= kShown ? text : text.substr(0, kShown) + "...";
}

// A collect answer of plain numbers (and nulls) is what nearly every collector sends after
// every run, and one the schema always accepts: its first alternative. The schema is
// checked for the rest, for its precise message (valijson took 8 us a run here).
bool plain_collect_answer(const json &answer) {
    if (!answer.is_object()) {
        return false;
    }
    for (const auto &item : answer) {
        if (!item.is_number() && !item.is_null()) {
            return false;
        }
    }
    return true;
}

}  // namespace

std::string answer_problem(AnswerKind kind, const json &answer,
                           std::optional<std::pair<double, double>> range) {
    if (kind == AnswerKind::collect && plain_collect_answer(answer)) {
        return "";
    }
    const auto violations = schema_of(kind).validate(answer);
    if (!violations.empty()) {
        const auto &first = violations.front();
        return (first.pointer.empty() ? std::string("the answer") : first.pointer) + ": " +
               first.message;
    }
    return kind == AnswerKind::predict ? forecast_problem(answer, range) : "";
}

json read_answer(const Instance &instance, const char *call, AnswerKind kind,
                 const std::string &text, std::optional<std::pair<double, double>> range) {
    // Made only for an error: read_answer runs for every collector after every run.
    const auto who = [&] {
        const Plugin &plugin = instance.plugin();
        return "plugin '" + plugin.id() + "' (" + plugin.path().string() + ") answered " + call +
               " with ";
    };
    json answer = json::parse(text, nullptr, false);
    if (answer.is_discarded()) {
        throw BadAnswerError(who() + "text that is not JSON: " + excerpt(text) +
                             "; a plugin answers one JSON object (docs/abi.md)");
    }
    if (const std::string problem = answer_problem(kind, answer, range); !problem.empty()) {
        throw BadAnswerError(who() + "an answer that breaks its contract (" + problem +
                             "); the answer was: " + excerpt(text) +
                             " (docs/abi.md gives each call's answer)");
    }
    return answer;
}

std::map<std::string, double> answer_metrics(const json &answer) {
    std::map<std::string, double> metrics;
    for (const auto &[name, item] : answer.items()) {
        const json &value = item.is_object() ? item["value"] : item;
        if (value.is_number()) {
            metrics[name] = value.get<double>();
        }
    }
    return metrics;
}

std::map<std::string, Aggregation> answer_aggregations(const json &answer) {
    std::map<std::string, Aggregation> declared;
    for (const auto &[name, item] : answer.items()) {
        if (item.is_object() && item.contains("aggregate")) {
            if (const auto aggregation = parse_aggregation(item["aggregate"].get<std::string>())) {
                declared[name] = *aggregation;
            }
        }
    }
    return declared;
}

}  // namespace sbx::plugins
