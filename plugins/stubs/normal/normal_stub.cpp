// The `normal` stub strategy: the inputs a workflow expects on a good day — each slot's
// example, else its default, else a plain valid value of its type.
#include <sbx/plugin.hpp>

#include <nlohmann/json.hpp>

#include "support/plain_values.hpp"
#include "support/stub_request.hpp"

namespace {

using nlohmann::json;

class NormalStub final : public sbx::StubStrategy {
  public:
    static constexpr sbx::About about{
        "normal",
        "Normal inputs",
        "1.0.0",
        "Fills every input slot from its example, else its default, else a plain valid "
        "value of its type.",
        R"({"type":"object","additionalProperties":false,"properties":{}})",
        "sandbox-runner",
        "https://example.invalid/sandbox-runner",
        "Apache-2.0"};

    explicit NormalStub(const std::string & /*config*/) {}

    std::string generate(const std::string &request_json) override {
        const auto request = sbx::support::read_request(request_json, "normal");
        json input_set = json::object();
        for (const auto &[name, slot] : request.slots.items()) {
            if (slot.contains("example")) {
                input_set[name] = slot["example"];
            } else if (slot.contains("default")) {
                input_set[name] = slot["default"];
            } else {
                input_set[name] = sbx::support::plain_value(slot, slot.value("type", "string"),
                                                            "normal: slot '" + name + "'");
            }
        }
        // Every set is the same: normal inputs do not vary, so repetitions measure the
        // environment, not the inputs.
        return json{{"input_sets", json::array_t(static_cast<size_t>(request.count), input_set)}}
            .dump();
    }
};

}  // namespace

SBX_PLUGIN(NormalStub);
