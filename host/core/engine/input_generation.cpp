// Input sets for a cell: given sets, or a chain of stub strategies, through the stub cache.
#include "engine/input_generation.hpp"

#include <algorithm>
#include <map>

#include "config/profile_names.hpp"
#include "engine/program_words.hpp"
#include "store/stub_cache.hpp"
#include "util/errors.hpp"
#include "util/hex_digest.hpp"

namespace sbx::engine {

using nlohmann::json;

namespace {

// The largest response the stub cache keeps.
constexpr size_t kMaxCachedBytes = size_t{8} << 20;

std::string trimmed(const std::string &text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string::npos) {
        return "";
    }
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// The stub cache's key text: FNV-1a as 16 hex digits.
std::string stable_hash(const std::string &text) {
    return util::fnv1a_hex(text);
}

std::string joined(const std::vector<std::string> &ids) {
    std::string text;
    for (const auto &id : ids) {
        text += (text.empty() ? "" : ",") + id;
    }
    return text;
}

// The given sets, cycled over the runs.
CellInputs given_inputs(const json &sets, int count) {
    CellInputs inputs;
    inputs.strategy = "input_stubs";
    for (int i = 0; i < count; ++i) {
        inputs.input_sets.push_back(sets[static_cast<size_t>(i) % sets.size()]);
        inputs.meta.push_back(nullptr);
    }
    return inputs;
}

// Checks one strategy's answer and folds its meta into `meta`.
json checked_sets(const json &answer, const std::string &id, int count, json &meta) {
    json sets = answer.value("input_sets", json());
    if (!sets.is_array() || sets.size() != static_cast<size_t>(count)) {
        throw EnvironmentError("stub strategy '" + id + "' returned " +
                               std::to_string(sets.is_array() ? sets.size() : 0) +
                               " input sets, expected " + std::to_string(count));
    }
    for (size_t j = 0; j < sets.size(); ++j) {
        if (!sets[j].is_object()) {
            throw EnvironmentError("stub strategy '" + id + "' returned input set " +
                                   std::to_string(j + 1) + " as " + sets[j].type_name() +
                                   ", not an object of slot names to values");
        }
    }
    const json &said = answer.value("meta", json());
    for (size_t j = 0; j < sets.size(); ++j) {
        if (said.is_array() && j < said.size() && !said[j].is_null() &&
            !(said[j].is_object() && said[j].empty())) {
            if (meta[j].is_null()) {
                meta[j] = json::object();
            }
            meta[j][id] = said[j];
        }
    }
    return sets;
}

}  // namespace

std::vector<std::string> strategy_chain(const json &value) {
    std::vector<std::string> ids;
    if (value.is_array()) {
        for (const auto &item : value) {
            if (item.is_string() && !trimmed(item.get<std::string>()).empty()) {
                ids.push_back(trimmed(item.get<std::string>()));
            }
        }
        return ids;
    }
    if (!value.is_string()) {
        return ids;
    }
    const std::string text = value.get<std::string>();
    for (size_t start = 0; start <= text.size();) {
        const size_t comma = std::min(text.find(',', start), text.size());
        if (auto id = trimmed(text.substr(start, comma - start)); !id.empty()) {
            ids.push_back(std::move(id));
        }
        start = comma + 1;
    }
    return ids;
}

json slots_of(const config::Workflow &workflow) {
    json slots = json::object();
    for (const auto &step : workflow.steps) {
        for (const auto &slot : step.inputs) {
            if (slots.contains(slot.name)) {
                continue;
            }
            json described{{"type", slot.type}, {"required", slot.required}};
            if (!slot.example.is_null()) {
                described["example"] = slot.example;
            }
            if (!slot.default_value.is_null()) {
                described["default"] = slot.default_value;
            }
            if (slot.min) {
                described["min"] = *slot.min;
            }
            if (slot.max) {
                described["max"] = *slot.max;
            }
            if (!slot.values.empty()) {
                described["values"] = slot.values;
            }
            if (!slot.schema.is_null()) {
                described["schema"] = slot.schema;
            }
            slots[slot.name] = described;
        }
    }
    return slots;
}

PresetStrategies preset_strategies(const presets::Preset &preset) {
    PresetStrategies chosen{strategy_chain(preset.body.value("SANDBOX_STUB_STRATEGY", json())),
                            preset.origin + ": SANDBOX_STUB_STRATEGY"};
    if (!chosen.ids.empty()) {
        return chosen;
    }
    static const std::map<std::string, std::string> implied = {
        {"hostile_input", "hostile"}, {"user_misuse", "misuse"}, {"schema_drift", "legacy_schema"}};
    chosen.where = preset.origin + ": FAILURE_MODES (no SANDBOX_STUB_STRATEGY)";
    for (const auto &mode : strategy_chain(preset.body.value("FAILURE_MODES", json()))) {
        const auto canonical = config::canonical_profile_name(mode);
        const auto found = canonical ? implied.find(*canonical) : implied.end();
        if (found != implied.end() &&
            std::find(chosen.ids.begin(), chosen.ids.end(), found->second) == chosen.ids.end()) {
            chosen.ids.push_back(found->second);
        }
    }
    return chosen;
}

CellInputs generate_cell_inputs(PluginSet &plugins, store::Store &store,
                                const config::Workflow &workflow, const presets::Preset &preset,
                                int count, int64_t seed, bool cached) {
    const auto &settings = plugins.settings();
    if (!settings.input_stubs.is_null()) {
        return given_inputs(settings.input_stubs, count);
    }
    // A preset chooses its inputs (hostile, misuse, ...); otherwise the configured default.
    auto [ids, where] = preset_strategies(preset);
    if (ids.empty()) {
        ids = strategy_chain(json(settings.stub_strategy));
        where = settings.stub_strategy_where.str();
    }
    if (ids.empty()) {
        throw InputError(where +
                         ": names no stub strategy; write an id such as normal, or a "
                         "chain such as faker,misuse");
    }
    std::vector<plugins::Instance *> links;
    std::string versions;
    for (const auto &id : ids) {
        links.push_back(&plugins.stub(id, where));
        versions += id + "@" + links.back()->plugin().descriptor().version + ";";
    }
    CellInputs inputs;
    inputs.strategy = joined(ids);
    // `words`: what the programs hold, for strategies that try the program's own values.
    const json request{{"slots", slots_of(workflow)},
                       {"count", count},
                       {"seed", seed},
                       {"preset", preset.body},
                       {"words", program_words(workflow)}};
    const std::string request_text = request.dump();
    const store::StubCacheKey key{workflow.name, inputs.strategy, seed,
                                  stable_hash(versions + request_text)};
    if (settings.stub_cache && cached) {
        if (const auto kept = store::find_stub_sets(store, key)) {
            const json answer = json::parse(*kept);
            inputs.input_sets = answer.at("input_sets");
            inputs.meta = answer.at("meta");
            inputs.categories = answer.value("categories", json::object());
            inputs.cached = true;
            return inputs;
        }
    }
    inputs.meta = json::array();
    for (int j = 0; j < count; ++j) {
        inputs.meta.push_back(nullptr);
    }
    for (size_t k = 0; k < links.size(); ++k) {
        // Each later strategy of a chain is handed the sets of the one before it to alter.
        json link_request = request;
        if (k > 0) {
            link_request["input_sets"] = inputs.input_sets;
        }
        const json answer =
            json::parse(links[k]->generate(k == 0 ? request_text : link_request.dump()));
        inputs.input_sets = checked_sets(answer, ids[k], count, inputs.meta);
        const json said = answer.value("categories", json());
        if (said.is_array() &&
            std::all_of(said.begin(), said.end(), [](const json &c) { return c.is_string(); })) {
            inputs.categories[ids[k]] = said;
        }
    }
    if (settings.stub_cache && cached) {
        const json answers{{"input_sets", inputs.input_sets},
                           {"meta", inputs.meta},
                           {"categories", inputs.categories}};
        const std::string kept = answers.dump(-1, ' ', false, json::error_handler_t::replace);
        if (kept.size() <= kMaxCachedBytes) {
            store::keep_stub_sets(store, key, kept);
        }
    }
    return inputs;
}

}  // namespace sbx::engine
