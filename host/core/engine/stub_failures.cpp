// Failure metrics from the stub strategies' meta.
#include "engine/stub_failures.hpp"

#include <algorithm>
#include <set>

namespace sbx::engine {

using nlohmann::json;

namespace {

constexpr const char *kSuffix = "_failures";

// The tag of one entry a strategy wrote for a slot, "" when it has none.
std::string tag_of(const json &entry) {
    if (!entry.is_object()) {
        return "";
    }
    for (const char *field : {"category", "kind", "change"}) {
        const auto found = entry.find(field);
        if (found != entry.end() && found->is_string()) {
            return found->get<std::string>();
        }
    }
    return "";
}

}  // namespace

namespace {

// Schema drift: a slot's entry that is a list of field changes ({field, change}) — what
// legacy_schema writes for a JSON slot it drifted. Adds schema_mismatches (fields changed),
// schema_mismatch_rate (changed / fields the slots had before the drift) and schema_errors
// (1 when the run failed on drifted inputs).
void add_schema_drift(const json &slots, const json &inputs, bool passed,
                      std::map<std::string, double> &metrics) {
    double changed = 0;
    double fields_before = 0;
    for (const auto &[slot, entry] : slots.items()) {
        if (!entry.is_array()) {
            continue;
        }
        double added = 0;
        double dropped = 0;
        for (const auto &change : entry) {
            const std::string kind = tag_of(change);
            added += kind == "added" ? 1 : 0;
            dropped += kind == "dropped" ? 1 : 0;
        }
        changed += static_cast<double>(entry.size());
        const auto value = inputs.is_object() ? inputs.find(slot) : inputs.end();
        const double now =
            value != inputs.end() && value->is_object() ? static_cast<double>(value->size()) : 0;
        fields_before += std::max(1.0, now - added + dropped);
    }
    if (fields_before == 0) {
        return;
    }
    metrics["schema_mismatches"] += changed;
    metrics["schema_mismatch_rate"] = metrics["schema_mismatches"] / fields_before;
    metrics["schema_errors"] = !passed && changed > 0 ? 1.0 : 0.0;
}

}  // namespace

std::map<std::string, double> stub_failure_metrics(const json &input_meta, const json &inputs,
                                                   bool passed) {
    std::map<std::string, double> metrics;
    metrics["inputs_tried"] = inputs.is_object() ? static_cast<double>(inputs.size()) : 0.0;
    if (!input_meta.is_object()) {
        return metrics;
    }
    for (const auto &[strategy, slots] : input_meta.items()) {
        if (slots.is_object()) {
            add_schema_drift(slots, inputs, passed, metrics);
        }
    }
    for (const auto &[strategy, slots] : input_meta.items()) {
        const std::string name = strategy + kSuffix;
        metrics[name] = passed ? 0.0 : 1.0;
        if (passed || !slots.is_object()) {
            continue;
        }
        for (const auto &[slot, entry] : slots.items()) {
            const auto &entries = entry.is_array() ? entry : json::array({entry});
            for (const auto &one : entries) {
                if (const auto tag = tag_of(one); !tag.empty()) {
                    std::string metric = name;
                    metric += '.';
                    metric += tag;
                    metrics[metric] = 1.0;
                }
            }
        }
    }
    return metrics;
}

std::vector<std::string> input_tags(const json &input_meta) {
    std::set<std::string> tags;
    if (!input_meta.is_object()) {
        return {};
    }
    for (const auto &[strategy, slots] : input_meta.items()) {
        if (!slots.is_object()) {
            continue;
        }
        for (const auto &[slot, entry] : slots.items()) {
            for (const auto &one : entry.is_array() ? entry : json::array({entry})) {
                if (auto tag = tag_of(one); !tag.empty()) {
                    tags.insert(std::move(tag));
                }
            }
        }
    }
    return {tags.begin(), tags.end()};
}

std::map<std::string, std::map<std::string, double>> failure_tags(
    const std::map<std::string, double> &metrics) {
    std::map<std::string, std::map<std::string, double>> tags;
    const std::string suffix = std::string(kSuffix) + ".";
    for (const auto &[name, value] : metrics) {
        const auto at = name.find(suffix);
        if (at == std::string::npos || at == 0 || value <= 0) {
            continue;
        }
        tags[name.substr(0, at)][name.substr(at + suffix.size())] = value;
    }
    return tags;
}

}  // namespace sbx::engine
