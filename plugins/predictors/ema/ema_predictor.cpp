// The `ema` predictor: exponential moving average forecast of the next value, with an
// interval from the one-step-ahead errors once the series is long enough.
#include <sbx/plugin.hpp>

#include <cmath>
#include <nlohmann/json.hpp>
#include <vector>

namespace {

using nlohmann::json;

// Below this many points an interval would be invented, not estimated.
constexpr size_t kMinPointsForInterval = 4;

class EmaPredictor final : public sbx::Predictor {
  public:
    static constexpr sbx::About about{
        "ema",
        "Exponential moving average",
        "1.0.0",
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
        alpha_ = config.value("alpha", 0.3);
        z_ = config.value("z", 1.96);
        if (!(alpha_ > 0 && alpha_ <= 1) || !(z_ > 0)) {
            throw sbx::Error(SBX_INVALID, "alpha must be in (0, 1] and z positive");
        }
    }

    std::string predict(const std::string &request_json) override {
        const json request = json::parse(request_json);
        const std::vector<double> series = request.value("series", std::vector<double>{});
        json answer{{"method", "ema"}, {"points", series.size()}};
        if (series.empty()) {
            answer["value"] = nullptr;
            answer["lower"] = nullptr;
            answer["upper"] = nullptr;
            answer["insufficient_data"] = true;
            return answer.dump();
        }
        double ema = series.front();
        double squared_error_sum = 0;
        for (size_t i = 1; i < series.size(); ++i) {
            const double error = series[i] - ema;  // the forecast made before seeing x_i
            squared_error_sum += error * error;
            ema = alpha_ * series[i] + (1 - alpha_) * ema;
        }
        answer["value"] = ema;
        if (series.size() < kMinPointsForInterval) {
            answer["lower"] = nullptr;
            answer["upper"] = nullptr;
            answer["insufficient_data"] = true;
        } else {
            const double sigma =
                std::sqrt(squared_error_sum / static_cast<double>(series.size() - 1));
            answer["lower"] = ema - z_ * sigma;
            answer["upper"] = ema + z_ * sigma;
            answer["insufficient_data"] = false;
        }
        return answer.dump();
    }

  private:
    double alpha_ = 0.3;
    double z_ = 1.96;
};

}  // namespace

SBX_PLUGIN(EmaPredictor);
