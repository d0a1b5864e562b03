// The `holt` predictor: double exponential smoothing with a damped trend, which follows a
// trend that changes where a straight line cannot.
#include <sbx/plugin.hpp>

#include <nlohmann/json.hpp>

#include "support/forecast_methods.hpp"

namespace {

using nlohmann::json;

class HoltPredictor final : public sbx::Predictor {
  public:
    static constexpr sbx::About about{
        "holt",
        "Damped-trend exponential smoothing",
        "1.0.0",
        "Forecasts the next value of a series by Holt's double exponential smoothing with a "
        "damped trend, with a normal-approximation interval from past one-step errors.",
        R"json({"type":"object","additionalProperties":false,"properties":{
              "alpha":{"type":"number","exclusiveMinimum":0,"maximum":1,"default":0.5,
                       "description":"level smoothing"},
              "beta":{"type":"number","minimum":0,"maximum":1,"default":0.3,
                      "description":"trend smoothing"},
              "phi":{"type":"number","exclusiveMinimum":0,"maximum":1,"default":0.9,
                     "description":"trend damping per step ahead (1: undamped)"},
              "z":{"type":"number","exclusiveMinimum":0,"default":1.96,
                   "description":"interval half-width in standard errors (1.96 = 95 %)"}}})json",
        "sandbox-runner",
        "https://example.invalid/sandbox-runner",
        "Apache-2.0"};

    explicit HoltPredictor(const std::string &config_json) {
        const json config = json::parse(config_json);
        parameters_.alpha = config.value("alpha", parameters_.alpha);
        parameters_.beta = config.value("beta", parameters_.beta);
        parameters_.phi = config.value("phi", parameters_.phi);
        parameters_.z = config.value("z", parameters_.z);
        if (!(parameters_.alpha > 0 && parameters_.alpha <= 1) ||
            !(parameters_.beta >= 0 && parameters_.beta <= 1) ||
            !(parameters_.phi > 0 && parameters_.phi <= 1) || !(parameters_.z > 0)) {
            throw sbx::Error(SBX_INVALID,
                             "alpha and phi must be in (0, 1], beta in [0, 1], z positive");
        }
    }

    std::string predict(const std::string &request_json) override {
        return sbx::support::answer_with(request_json, "holt", [&](const auto &series) {
            return sbx::support::holt_forecast(series, parameters_);
        });
    }

  private:
    sbx::support::HoltParameters parameters_;
};

}  // namespace

SBX_PLUGIN(HoltPredictor);
