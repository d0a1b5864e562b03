// The `linear` predictor: the least squares line through the series, extended one step, with
// a prediction interval from Student's t distribution.
#include <sbx/plugin.hpp>

#include <nlohmann/json.hpp>

#include "support/forecast_methods.hpp"

namespace {

using nlohmann::json;

class LinearPredictor final : public sbx::Predictor {
  public:
    static constexpr sbx::About about{
        "linear",
        "Least squares trend",
        "1.0.0",
        "Forecasts the next value of a series on its least squares line over the point index, "
        "with a prediction interval from Student's t with n - 2 degrees of freedom.",
        R"json({"type":"object","additionalProperties":false,"properties":{
              "confidence":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1,
                            "default":0.95,
                            "description":"coverage the prediction interval aims at"}}})json",
        "sandbox-runner",
        "https://example.invalid/sandbox-runner",
        "Apache-2.0"};

    explicit LinearPredictor(const std::string &config_json) {
        const json config = json::parse(config_json);
        parameters_.confidence = config.value("confidence", parameters_.confidence);
        if (!(parameters_.confidence > 0 && parameters_.confidence < 1)) {
            throw sbx::Error(SBX_INVALID, "confidence must be in (0, 1)");
        }
    }

    std::string predict(const std::string &request_json) override {
        return sbx::support::answer_with(request_json, "linear", [&](const auto &series) {
            return sbx::support::linear_forecast(series, parameters_);
        });
    }

  private:
    sbx::support::LinearParameters parameters_;
};

}  // namespace

SBX_PLUGIN(LinearPredictor);
