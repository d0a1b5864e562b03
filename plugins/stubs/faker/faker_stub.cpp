// The `faker` stub strategy: realistic values by slot type and name (people, emails, URLs,
// addresses, phone numbers, companies, dates, numbers in range) in a chosen locale.
#include <sbx/plugin.hpp>

#include "support/stub_request.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "locale.hpp"
#include "slot_plan.hpp"

namespace {

using nlohmann::json;
using sbx_faker::Locale;

// A locale by name, or SBX_INVALID naming `where` and the known locales.
const Locale &locale_named(const json &name, const std::string &where) {
    const Locale *locale =
        name.is_string() ? sbx_faker::find_locale(name.get_ref<const std::string &>()) : nullptr;
    if (locale == nullptr) {
        throw sbx::Error(SBX_INVALID,
                         "faker: " + where + " " + name.dump() +
                             " is not a locale; known locales: " + sbx_faker::locale_list());
    }
    return *locale;
}

class FakerStub final : public sbx::StubStrategy {
  public:
    // Rationale: `locale` is a plain string in the schema, not an enum, so that an unknown
    // locale reaches the constructor, whose refusal lists the known ones.
    static constexpr sbx::About about{
        "faker",
        "Realistic inputs",
        "1.0.0",
        "Fills every input slot with a realistic value of its type, chosen by a hint in its "
        "name (email, first_name, city, phone, company, url, address, zip, username, "
        "birthday, ...): people, emails, URLs, addresses, phone numbers, companies, dates, "
        "numbers within min/max, JSON following the slot's schema or example. Locales en_US "
        "and de_DE (preset SANDBOX_FAKER_LOCALE overrides). Each value depends only on "
        "(seed, input set, slot name, locale).",
        R"({"type":"object","additionalProperties":false,"properties":{)"
        R"("locale":{"type":"string","default":"en_US",)"
        R"("description":"Locale of names, addresses and phone numbers: en_US or de_DE; )"
        R"(a preset's SANDBOX_FAKER_LOCALE overrides it."}}})",
        "sandbox-runner",
        "https://example.invalid/sandbox-runner",
        "Apache-2.0"};

    explicit FakerStub(const std::string &config_json) : locale_(&configured(config_json)) {}

    // Response: {"input_sets": [...], "generators": {slot: generator}}; the second says which
    // generator each slot's type and name chose, the same for every set.
    std::string generate(const std::string &request_json) override {
        const auto request = sbx::support::read_request(request_json, "faker");
        const Locale &locale = preset_locale(request.body);
        const std::vector<sbx_faker::SlotPlan> plans =
            sbx_faker::plan_slots(request.slots, request.seed, locale);
        std::string out = "{\"input_sets\":[";
        for (uint64_t j = 0; j < request.count; ++j) {
            if ((j & 0x3FFFU) == 0x3FFFU && sbx::host::cancelled()) {
                throw sbx::Error(SBX_CANCELLED, "faker: cancelled");
            }
            out += j == 0 ? "{" : ",{";
            for (std::size_t i = 0; i < plans.size(); ++i) {
                if (i > 0) {
                    out += ',';
                }
                out += plans[i].key;
                sbx_faker::append_value(plans[i], locale, j, out);
            }
            out += '}';
        }
        out += "],\"generators\":{";
        for (std::size_t i = 0; i < plans.size(); ++i) {
            out += i > 0 ? "," : "";
            out += plans[i].key;
            out += '"';
            out += sbx_faker::generator_name(plans[i].generator);
            out += '"';
        }
        out += "}}";
        return out;
    }

  private:
    // sandbox-runner checks the schema first; this guards hosts that do not.
    static const Locale &configured(const std::string &config_json) {
        const json config = sbx::support::parse_json(config_json, "faker", "configuration");
        if (!config.is_object()) {
            throw sbx::Error(SBX_INVALID, "faker: configuration must be an object");
        }
        const Locale *locale = &sbx_faker::en_us();
        for (const auto &[key, value] : config.items()) {
            if (key != "locale") {
                throw sbx::Error(SBX_INVALID, "faker: unknown configuration key '" + key +
                                                  "'; the only key is locale");
            }
            locale = &locale_named(value, "configuration locale");
        }
        return *locale;
    }

    // The preset's SANDBOX_FAKER_LOCALE, when set and not empty, else the configured one.
    const Locale &preset_locale(const json &body) const {
        const auto preset = body.find("preset");
        if (preset == body.end() || !preset->is_object()) {
            return *locale_;
        }
        const auto name = preset->find("SANDBOX_FAKER_LOCALE");
        if (name == preset->end() || name->is_null() || *name == json("")) {
            return *locale_;
        }
        return locale_named(*name, "preset SANDBOX_FAKER_LOCALE");
    }

    const Locale *locale_;
};

}  // namespace

SBX_PLUGIN(FakerStub);
