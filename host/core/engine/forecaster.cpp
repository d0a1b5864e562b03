#include "engine/forecaster.hpp"

#include "engine/optional_plugins.hpp"
#include "plugins/answer_contract.hpp"
#include "plugins/plugin.hpp"
#include "util/errors.hpp"

namespace sbx::engine {

using nlohmann::json;

namespace {

std::optional<double> number_of(const json &answer, const char *key) {
    const auto found = answer.find(key);
    return found != answer.end() && found->is_number() ? std::optional(found->get<double>())
                                                       : std::nullopt;
}

}  // namespace

json Forecaster::forecast(const SeriesQuestion &question) {
    if (question.points.empty()) {
        return json::object();
    }
    std::vector<double> values;
    values.reserve(question.points.size());
    json timestamps = json::array();
    for (const auto &point : question.points) {
        values.push_back(point.value);
        timestamps.push_back(point.at);
    }
    json series = values;
    json request{{"series", std::move(series)},
                 {"timestamps", std::move(timestamps)},
                 {"subject", question.subject},
                 {"metric", question.metric}};
    if (question.range) {
        request["range"] = {question.range->first, question.range->second};
    }
    const std::string request_text = request.dump();

    const int points = static_cast<int>(question.points.size());
    std::vector<store::PredictionRecord> records;
    json shown;
    const auto ask = [&](plugins::Instance &predictor, bool is_shown) {
        json answer = plugins::read_answer(predictor, "predict", plugins::AnswerKind::predict,
                                           predictor.predict(request_text), question.range);
        const auto chosen = answer.find("chosen");
        records.push_back(
            {session_id_, question.subject, predictor.plugin().id(), number_of(answer, "value"),
             number_of(answer, "lower"), number_of(answer, "upper"), points,
             chosen != answer.end() && chosen->is_string() ? chosen->get<std::string>()
                                                           : std::string(),
             is_shown});
        return answer;
    };
    // A predictor is optional: one that fails is disabled (optional_plugins.hpp), and the
    // shown forecast is then absent ({}), the report saying why.
    const auto ask_optional = [&](plugins::Instance &predictor, bool is_shown) {
        json answer = json::object();
        if (plugins_.disabled().is_disabled(predictor.plugin().id())) {
            return answer;
        }
        const auto failed = call_optional(
            predictor, plugins::PluginCall::predict, request_text,
            "forecast of " + question.subject + " from " + std::to_string(points) + " points",
            [&] { answer = ask(predictor, is_shown); });
        if (failed) {
            disable_failed_plugin(plugins_, store_, session_id_, *failed, std::nullopt);
            return json(json::object());
        }
        return answer;
    };
    shown = ask_optional(plugins_.predictor(), true);
    for (auto &compared : plugins_.compared_predictors()) {
        ask_optional(*compared, false);
    }
    store::record_forecasts(store_, question.subject, values, records);
    return shown;
}

std::string cell_series_subject(const std::string &metric, const std::string &workflow,
                                const std::string &preset, const std::string &flag) {
    return metric + ":" + workflow + ":" + preset + ":" + flag;
}

}  // namespace sbx::engine
