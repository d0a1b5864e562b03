// The `signature` stub strategy: each slot's default, else its example, else the zero
// value of its type; the same set `count` times, so it is deterministic by construction.
#include <sbx/plugin.hpp>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "support/stub_request.hpp"

namespace {

using nlohmann::json;

// The zero value of a slot type. Unknown types are text, as in every other strategy.
json zero_value(const json &slot) {
    const auto type_it = slot.is_object() ? slot.find("type") : slot.end();
    const std::string type =
        type_it != slot.end() && type_it->is_string() ? type_it->get<std::string>() : "string";
    if (type == "int") {
        return 0;
    }
    if (type == "float") {
        return 0.0;
    }
    if (type == "bool") {
        return false;
    }
    if (type == "json") {
        return json::object();
    }
    if (type == "date") {
        return "1970-01-01";
    }
    if (type == "list") {
        return json::array();  // no arguments at all
    }
    if (type == "enum") {
        const auto values = slot.find("values");
        if (values != slot.end() && values->is_array() && !values->empty()) {
            return values->front();
        }
    }
    return "";  // string, path, email, url, name, bytes, and an enum without values
}

json value_of(const json &slot) {
    if (slot.is_object()) {
        // The default comes first: it is what a caller passing nothing would get.
        for (const char *key : {"default", "example"}) {
            const auto it = slot.find(key);
            if (it != slot.end() && !it->is_null()) {
                return *it;
            }
        }
    }
    return zero_value(slot);
}

class SignatureStub final : public sbx::StubStrategy {
  public:
    static constexpr sbx::About about{
        "signature",
        "Signature inputs",
        "1.0.0",
        "Fills every input slot with its default, else its example, else the zero value of "
        "its type; every input set is the same.",
        R"({"type":"object","additionalProperties":false,"properties":{}})",
        "sandbox-runner",
        "https://example.invalid/sandbox-runner",
        "Apache-2.0"};

    explicit SignatureStub(const std::string &config_json) {
        sbx::support::require_empty_config(config_json, "signature");
    }

    std::string generate(const std::string &request_json) override {
        // The seed changes nothing here, but a malformed one is still a malformed request.
        const auto request = sbx::support::read_request(request_json, "signature");
        json input_set = json::object();
        for (const auto &[name, slot] : request.slots.items()) {
            input_set[name] = value_of(slot);
        }
        const uint64_t count = request.count;
        return json{{"input_sets", json::array_t(static_cast<size_t>(count), input_set)}}.dump();
    }
};

}  // namespace

SBX_PLUGIN(SignatureStub);
