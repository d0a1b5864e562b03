// The `auto` predictor: per series, the method (ema, linear or holt) whose one-step forecasts
// of the series' own recent points were closest, i.e. the lowest rolling MAE had it forecast
// all along. The answer names the chosen method and every method's score.
#include <sbx/plugin.hpp>

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "support/forecast_methods.hpp"

namespace {

using nlohmann::json;
using sbx::support::Forecast;

struct Candidate {
    const char *name;
    std::function<Forecast(const std::vector<double> &)> method;
};

// Errors this close count as a tie, which the earlier candidate wins: an exact fit differs
// from another exact fit only by rounding.
constexpr double kTie = 1e-12;

class AutoPredictor final : public sbx::Predictor {
  public:
    static constexpr sbx::About about{
        "auto",
        "Best of ema, linear and holt per series",
        "1.0.0",
        "Replays ema, linear and holt over each series and forecasts with the one whose "
        "one-step errors over the last `window` points have the lowest mean (rolling MAE); "
        "ties go to the simpler method, in that order.",
        R"json({"type":"object","additionalProperties":false,"properties":{
              "window":{"type":"integer","minimum":0,"default":5,
                        "description":"recent points whose one-step errors are compared (0: all)"}}})json",
        "sandbox-runner",
        "https://example.invalid/sandbox-runner",
        "Apache-2.0"};

    explicit AutoPredictor(const std::string &config_json) {
        const json config = json::parse(config_json);
        window_ = config.value("window", window_);
    }

    std::string predict(const std::string &request_json) override {
        const json request = json::parse(request_json);
        const auto series = sbx::support::request_series(request);
        const std::vector<Candidate> candidates = {
            {"ema", [](const auto &s) { return sbx::support::ema_forecast(s, {}); }},
            {"linear", [](const auto &s) { return sbx::support::linear_forecast(s, {}); }},
            {"holt", [](const auto &s) { return sbx::support::holt_forecast(s, {}); }}};
        json scores = json::object();
        const Candidate *chosen = &candidates.front();
        std::optional<double> best;
        for (const auto &candidate : candidates) {
            const auto mae = sbx::support::replayed_mae(series, window_, candidate.method);
            scores[candidate.name] = mae ? json(*mae) : json();
            if (mae && (!best || *mae < *best - kTie)) {
                best = mae;
                chosen = &candidate;
            }
        }
        json answer = sbx::support::forecast_answer(
            "auto", series.size(),
            sbx::support::within_request_range(request, chosen->method(series)));
        answer["chosen"] = chosen->name;
        answer["mae"] = scores;
        return answer.dump();
    }

  private:
    size_t window_ = 5;
};

}  // namespace

SBX_PLUGIN(AutoPredictor);
