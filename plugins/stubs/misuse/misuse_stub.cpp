// The `misuse` stub strategy: valid inputs misused the way careless users and callers do —
// wrong types, missing or extra slots, out-of-range numbers, paths outside the workspace.
#include <sbx/plugin.hpp>

#include "support/stub_request.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <sbx/random.hpp>
#include "kinds.hpp"
#include "misused_values.hpp"
#include "schedule.hpp"

namespace {

using nlohmann::json;
using sbx_misuse::Kind;

class MisuseStub final : public sbx::StubStrategy {
  public:
    // Rationale: `kinds` items are plain strings, not a JSON Schema enum, so that an
    // unknown kind reaches the constructor, whose refusal names it and lists the known
    // ones; a schema enum violation would only say "not one of the enum values".
    static constexpr sbx::About about{
        "misuse",
        "Misused inputs",
        "1.1.0",
        "Valid inputs with one or more misuses per set: wrong_type, missing_required (left "
        "out of the set), extra_slot, out_of_range, wrong_arity, path_escape, enum_violation, on a "
        "seeded schedule that meets every applicable kind; meta tags each set's misuses.",
        R"({"type":"object","additionalProperties":false,"properties":{)"
        R"("kinds":{"type":"array","minItems":1,"items":{"type":"string"},)"
        R"("default":["wrong_type","missing_required","extra_slot","out_of_range",)"
        R"("wrong_arity","path_escape","enum_violation"],)"
        R"("description":"The kinds of misuse to apply, from wrong_type, missing_required, )"
        R"(extra_slot, out_of_range, wrong_arity, path_escape, enum_violation (default: )"
        R"(all)."}}})",
        "sandbox-runner",
        "https://example.invalid/sandbox-runner",
        "Apache-2.0"};

    explicit MisuseStub(const std::string &config_json) : kinds_(enabled_kinds(config_json)) {}

    // Response: {"input_sets": [...], "meta": [{slot: {"kind": ..., details}}],
    // "categories": [kind, ...]}, sets and meta parallel; meta names every slot a set
    // misused, and only those; categories lists the kinds these slots can meet.
    std::string generate(const std::string &request_json) override {
        const auto request = sbx::support::read_request(request_json, "misuse");
        std::vector<sbx_misuse::Slot> slots;
        json valid = json::object();
        for (const auto &[name, declaration] : request.slots.items()) {  // sorted by name
            slots.push_back(sbx_misuse::read_slot(name, declaration));
            valid[name] = slots.back().valid;
        }
        sbx::SplitMix64 rng(request.seed);
        sbx_misuse::Schedule schedule(slots, kinds_, rng);
        std::map<std::pair<Kind, std::size_t>, sbx_misuse::Turn> turns;  // by (kind, slot)
        json sets = json::array();
        json meta = json::array();
        const uint64_t count = request.count;
        for (uint64_t j = 0; j < count; ++j) {
            if ((j & 0x3FFU) == 0x3FFU && sbx::host::cancelled()) {
                throw sbx::Error(SBX_CANCELLED, "misuse: cancelled");
            }
            json set = request.chained(j, valid);
            json tags = json::object();
            if (!schedule.empty()) {
                for (const sbx_misuse::Misuse &m : schedule.next(rng)) {
                    if (m.kind == Kind::extra_slot) {
                        sbx_misuse::add_extra_slots(set, tags, rng);
                    } else {
                        const sbx_misuse::Slot &slot = slots[m.slot];
                        const auto [turn, first] = turns.try_emplace({m.kind, m.slot});
                        if (first) {
                            turn->second.offset = rng.next();
                        }
                        tags[slot.name] = sbx_misuse::misuse_slot(m.kind, slot, set, turn->second);
                        ++turn->second.count;
                    }
                }
            }
            sets.push_back(std::move(set));
            meta.push_back(std::move(tags));
        }
        // Every kind these slots can meet, so the host can say how many a cell tried.
        json categories = json::array();
        for (const Kind scheduled : schedule.kinds()) {
            categories.push_back(sbx_misuse::kind_name(scheduled));
        }
        return json{{"input_sets", std::move(sets)},
                    {"meta", std::move(meta)},
                    {"categories", std::move(categories)}}
            .dump();
    }

  private:
    // sandbox-runner checks the schema first; this guards hosts that do not, and names an
    // unknown kind with the list of known ones.
    static std::vector<Kind> enabled_kinds(const std::string &config_json) {
        const json config = sbx::support::parse_json(config_json, "misuse", "configuration");
        if (!config.is_object()) {
            throw sbx::Error(SBX_INVALID, "misuse: configuration must be an object");
        }
        std::vector<Kind> kinds(sbx_misuse::kAllKinds.begin(), sbx_misuse::kAllKinds.end());
        for (const auto &[key, value] : config.items()) {
            if (key != "kinds") {
                throw sbx::Error(SBX_INVALID, "misuse: unknown configuration key '" + key +
                                                  "'; the only key is kinds");
            }
            if (!value.is_array() || value.empty()) {
                throw sbx::Error(SBX_INVALID, "misuse: kinds must be a non-empty list of: " +
                                                  sbx_misuse::kind_list());
            }
            kinds.clear();
            for (const json &name : value) {
                const auto kind = name.is_string() ? sbx_misuse::kind_named(name.get<std::string>())
                                                   : std::nullopt;
                if (!kind) {
                    throw sbx::Error(SBX_INVALID, "misuse: kinds: " + name.dump() +
                                                      " is not a kind of misuse; known kinds: " +
                                                      sbx_misuse::kind_list());
                }
                kinds.push_back(*kind);
            }
        }
        return kinds;
    }

    std::vector<Kind> kinds_;
};

}  // namespace

SBX_PLUGIN(MisuseStub);
