// The five kinds' scaffold members. They parse requests by hand to show that the SDK needs
// no JSON library; a real plugin would use one.
#include "plugins/plugin_scaffold_members.hpp"

#include <array>

namespace sbx::plugins {
namespace {

constexpr const char *kExecutor =
    R"text(    // The request is a run spec; a real executor runs spec["argv"] and fills the result.
    std::string run(const std::string & /*spec_json*/) override {
        return R"({"status":"XX","error":"not implemented"})";
    }
)text";

constexpr const char *kInjector =
    R"text(    // Inactive: nothing is changed, so teardown has nothing to undo.
    std::string prepare(const std::string & /*request_json*/) override {
        return R"({"active":false})";
    }
    void teardown(const std::string & /*state_json*/) override {}
    std::string sweep(const std::string & /*request_json*/) override {
        return R"({"removed":[]})";
    }
)text";

constexpr const char *kStub =
    R"text(    // Answers `count` empty input sets, which suit a workflow without inputs.
    std::string generate(const std::string &request_json) override {
        const long count = find_count(request_json);
        std::string sets;
        for (long i = 0; i < count; ++i) {
            sets += i == 0 ? "{}" : ",{}";
        }
        return R"({"input_sets":[)" + sets + "]}";
    }

  private:
    // The first "count" key followed by a number (a slot named count is an object, skipped).
    static long find_count(const std::string &json) {
        for (auto at = json.find("\"count\""); at != std::string::npos;
             at = json.find("\"count\"", at + 1)) {
            const auto value = json.find_first_not_of(" \t\r\n:", at + 7);
            if (value != std::string::npos &&
                std::isdigit(static_cast<unsigned char>(json[value]))) {
                return std::strtol(json.c_str() + value, nullptr, 10);
            }
        }
        throw sbx::Error(SBX_INVALID, "request has no count");
    }
)text";

constexpr const char *kMetrics =
    R"text(    // No metrics yet: an empty object is a valid answer for both phases ("run", "cell").
    std::string collect(const std::string & /*request_json*/) override { return "{}"; }
)text";

constexpr const char *kPredictor =
    R"text(    // Forecasts the last value of {"series": [...]}, flagged as insufficient data.
    std::string predict(const std::string &request_json) override {
        const auto key = request_json.find("\"series\"");
        const auto open = request_json.find('[', key == std::string::npos ? 0 : key);
        const auto close = request_json.find(']', open);
        std::string last = "null";
        if (key != std::string::npos && open != std::string::npos && close != std::string::npos) {
            const std::string items = request_json.substr(open + 1, close - open - 1);
            const auto comma = items.rfind(',');
            const std::string tail = comma == std::string::npos ? items : items.substr(comma + 1);
            const auto first = tail.find_first_not_of(" \t\r\n");
            if (first != std::string::npos) {
                last = tail.substr(first, tail.find_last_not_of(" \t\r\n") - first + 1);
            }
        }
        return R"({"value":)" + last +
               R"(,"lower":null,"upper":null,"method":"last_value","insufficient_data":true})";
    }
)text";

constexpr std::array<ScaffoldKind, 5> kKinds = {{
    {"executor", "Executor", "executors", kExecutor, "executor.run.json"},
    {"injector", "Injector", "injectors", kInjector, "injector.prepare.json"},
    {"stub", "StubStrategy", "stubs", kStub, "stub.generate.json"},
    {"metrics", "MetricsCollector", "metrics", kMetrics, "metrics.collect.run.json"},
    {"predictor", "Predictor", "predictors", kPredictor, "predictor.predict.json"},
}};

}  // namespace

const ScaffoldKind *scaffold_kind(const std::string &kind) {
    for (const auto &known : kKinds) {
        if (kind == known.kind) {
            return &known;
        }
    }
    return nullptr;
}

std::string scaffold_kind_list() {
    std::string list;
    for (size_t i = 0; i < kKinds.size(); ++i) {
        list += std::string(i == 0 ? "" : i + 1 == kKinds.size() ? " or " : ", ") + kKinds[i].kind;
    }
    return list;
}

}  // namespace sbx::plugins
