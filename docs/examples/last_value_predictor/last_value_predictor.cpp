// A complete third-party plugin: predicts that the next value of a series equals the
// last one. It needs nothing but the SDK headers and the C++ standard library. Build it
// with the CMakeLists.txt beside it, or by hand:
//   c++ -std=c++17 -shared -fPIC $(pkg-config --cflags sandbox-runner-sdk)
//       last_value_predictor.cpp -o last_value.so $(pkg-config --libs sandbox-runner-sdk)
// (the SDK's link flags keep the one entry symbol the only export).
#include <sbx/plugin.hpp>

#include <string>

namespace {

class LastValuePredictor final : public sbx::Predictor {
  public:
    static constexpr sbx::About about{
        "last_value",
        "Last value",
        "1.0.0",
        "Forecasts that the next value equals the last one (a naive baseline).",
        R"({"type":"object","additionalProperties":false,"properties":{}})",
        "Example Corp"};

    explicit LastValuePredictor(const std::string & /*config_json*/) {}

    // The request is {"series": [numbers...]}; a real plugin would use a JSON library.
    // This one finds the last number by hand to show that the SDK itself needs none.
    std::string predict(const std::string &request_json) override {
        const auto open = request_json.find('[');
        const auto close = request_json.find(']', open);
        if (open == std::string::npos || close == std::string::npos) {
            throw sbx::Error(SBX_INVALID, "request has no series");
        }
        const std::string items = request_json.substr(open + 1, close - open - 1);
        const auto comma = items.rfind(',');
        const std::string last = comma == std::string::npos ? items : items.substr(comma + 1);
        sbx::host::log(SBX_LOG_DEBUG,
                       "forecasting from " + std::to_string(items.size()) + " bytes of series");
        if (last.find_first_not_of(" \n\t") == std::string::npos) {
            return R"({"value":null,"lower":null,"upper":null,"method":"last_value",)"
                   R"("insufficient_data":true})";
        }
        return R"({"value":)" + last +
               R"(,"lower":null,"upper":null,"method":"last_value",)"
               R"("insufficient_data":true})";
    }
};

}  // namespace

SBX_PLUGIN(LastValuePredictor);
