// The `ema` predictor: exponential moving average forecast of the next value, with an
// interval from the one-step-ahead errors once the series is long enough.
#include <sbx/plugin.hpp>

#include <nlohmann/json.hpp>

#include "support/forecast_methods.hpp"

namespace {

using nlohmann::json;

class EmaPredictor final : public sbx::Predictor {
  public:
    static constexpr sbx::About about{
        "ema",
        "Exponential moving average",
        "1.1.0",
        "Forecasts the next value of a series as its EMA (alpha 0.3 by default), with a "
        "normal-approximation interval from past one-step errors.",
        R"json({"type":"object","additionalProperties":false,"properties":{
              "alpha":{"type":"number","exclusiveMinimum":0,"maximum":1,"default":0.3,
                       "description":"smoothing factor; larger follows recent values faster"},
              "z":{"type":"number","exclusiveMinimum":0,"default":1.96,
                   "description":"interval half-width in standard errors (1.96 = 95 %)"}}})json",
        "sandbox-runner",
        "https://example.invalid/sandbox-runner",
        "Apache-2.0"};

    explicit EmaPredictor(const std::string &config_json) {
        const json config = json::parse(config_json);
        parameters_.alpha = config.value("alpha", parameters_.alpha);
        parameters_.z = config.value("z", parameters_.z);
        if (!(parameters_.alpha > 0 && parameters_.alpha <= 1) || !(parameters_.z > 0)) {
            throw sbx::Error(SBX_INVALID, "alpha must be in (0, 1] and z positive");
        }
    }

    std::string predict(const std::string &request_json) override {
        return sbx::support::answer_with(request_json, "ema", [&](const auto &series) {
            return sbx::support::ema_forecast(series, parameters_);
        });
    }

  private:
    sbx::support::EmaParameters parameters_;
};

}  // namespace

SBX_PLUGIN(EmaPredictor);
