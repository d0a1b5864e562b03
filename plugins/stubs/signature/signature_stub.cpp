// The `signature` stub strategy: each slot's default, else its example, else the zero
// value of its type; the same set `count` times, so it is deterministic by construction.
#include <sbx/plugin.hpp>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

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
        // Plugin::create() called directly skips the registry's schema check; repeat it.
        json config;
        try {
            config = json::parse(config_json);
        } catch (const json::exception &e) {
            throw sbx::Error(SBX_INVALID,
                             std::string("signature: config is not JSON: ") + e.what());
        }
        if (!config.is_object() || !config.empty()) {
            throw sbx::Error(SBX_INVALID, "signature: configuration must be an empty object");
        }
    }

    std::string generate(const std::string &request_json) override {
        json request;
        try {
            request = json::parse(request_json);
        } catch (const json::exception &e) {
            throw sbx::Error(SBX_INVALID,
                             std::string("signature: request is not JSON: ") + e.what());
        }
        if (!request.is_object()) {
            throw sbx::Error(SBX_INVALID, "signature: request must be an object");
        }
        const json count_field = request.value("count", json(1));
        if (!count_field.is_number_integer() || count_field.get<int64_t>() < 0) {
            throw sbx::Error(SBX_INVALID, "signature: count must be a non-negative integer");
        }
        // The seed changes nothing here, but a malformed one is still a malformed request.
        const json seed = request.value("seed", json(0));
        if (!seed.is_null() && !seed.is_number_integer()) {
            throw sbx::Error(SBX_INVALID, "signature: seed must be an integer");
        }
        const json slots = request.value("slots", json::object());
        if (!slots.is_null() && !slots.is_object()) {
            throw sbx::Error(SBX_INVALID, "signature: slots must be an object");
        }
        json input_set = json::object();
        if (slots.is_object()) {
            for (const auto &[name, slot] : slots.items()) {
                input_set[name] = value_of(slot);
            }
        }
        const auto count = count_field.get<uint64_t>();
        return json{{"input_sets", json::array_t(static_cast<size_t>(count), input_set)}}.dump();
    }
};

}  // namespace

SBX_PLUGIN(SignatureStub);
