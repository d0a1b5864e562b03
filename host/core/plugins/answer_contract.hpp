// The contracts of plugin answers, checked on every call of a real run exactly as
// `plugins verify` checks them: the SDK's versioned JSON Schemas (sdk/schemas, installed
// with the SDK) plus the rules a schema cannot say. A broken answer is a plugin defect: an
// EnvironmentError (exit 3) that names the plugin, its file, the call and the offending
// text, never a library's parse error and never a value silently dropped.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>

#include "plugins/metric_aggregation.hpp"
#include "plugins/plugin.hpp"

namespace sbx::plugins {

// An answer that is not JSON or breaks its contract: the plugin's defect.
class BadAnswerError : public EnvironmentError {
  public:
    using EnvironmentError::EnvironmentError;
};

enum class AnswerKind {
    collect,  // metrics.collect.answer.v1
    predict,  // predictor.predict.answer.v1
};

// "" when `answer` keeps the contract of `kind`, else what breaks it ("/latency: expected
// number or null, got string \"high\""). `range`: where a forecast must lie (ROI: [0, 1]).
std::string answer_problem(AnswerKind kind, const nlohmann::json &answer,
                           std::optional<std::pair<double, double>> range = std::nullopt);

// The answer `text` of `instance` to `call`, parsed and checked; throws BadAnswerError
// "plugin 'ID' (PATH) answered CALL with ...: PROBLEM; the answer began: TEXT".
nlohmann::json read_answer(const Instance &instance, const char *call, AnswerKind kind,
                           const std::string &text,
                           std::optional<std::pair<double, double>> range = std::nullopt);

// A checked collect answer's metrics: its numbers, plain or as {"value": n} (null, "not
// measured", left out).
std::map<std::string, double> answer_metrics(const nlohmann::json &answer);

// The aggregations a checked collect answer declares ({"value": n, "aggregate": "max"}).
std::map<std::string, Aggregation> answer_aggregations(const nlohmann::json &answer);

}  // namespace sbx::plugins
