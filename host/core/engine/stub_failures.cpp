// Failure metrics from the stub strategies' meta.
#include "engine/stub_failures.hpp"

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

std::map<std::string, double> stub_failure_metrics(const json &input_meta, const json &inputs,
                                                   bool passed) {
    std::map<std::string, double> metrics;
    metrics["inputs_tried"] = inputs.is_object() ? static_cast<double>(inputs.size()) : 0.0;
    if (!input_meta.is_object()) {
        return metrics;
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
