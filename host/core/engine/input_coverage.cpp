// Counting the categories a cell's inputs tried.
#include "engine/input_coverage.hpp"

#include <set>

namespace sbx::engine {

using nlohmann::json;

namespace {

constexpr const char *kTried = "_categories_tried";
constexpr const char *kReachable = "_categories";

// The tags of one slot entry: its category, kind or change, and a polyglot's parts.
void add_tags(const json &entry, std::set<std::string> &tags) {
    if (entry.is_array()) {
        for (const auto &one : entry) {
            add_tags(one, tags);
        }
        return;
    }
    if (!entry.is_object()) {
        return;
    }
    for (const char *field : {"category", "kind", "change"}) {
        const auto found = entry.find(field);
        if (found != entry.end() && found->is_string()) {
            tags.insert(found->get<std::string>());
            break;
        }
    }
    const auto parts = entry.find("parts");
    if (parts != entry.end() && parts->is_object()) {
        for (const auto &[category, value] : parts->items()) {
            tags.insert(category);
        }
    }
}

bool ends_with(const std::string &text, const std::string &suffix) {
    return text.size() > suffix.size() &&
           text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::map<std::string, double> input_coverage_metrics(const json &meta, const json &reachable) {
    std::map<std::string, std::set<std::string>> tried;
    std::map<std::string, double> metrics;
    if (!meta.is_array()) {
        return metrics;
    }
    for (const auto &set : meta) {
        if (!set.is_object()) {
            continue;
        }
        for (const auto &[strategy, slots] : set.items()) {
            if (!slots.is_object()) {
                continue;
            }
            for (const auto &[slot, entry] : slots.items()) {
                add_tags(entry, tried[strategy]);
            }
        }
    }
    for (const auto &[strategy, tags] : tried) {
        if (tags.empty()) {
            continue;
        }
        metrics[strategy + kTried] = static_cast<double>(tags.size());
        const auto said = reachable.is_object() ? reachable.find(strategy) : reachable.end();
        if (said != reachable.end() && said->is_array() && !said->empty()) {
            metrics[strategy + kReachable] = static_cast<double>(said->size());
        }
    }
    return metrics;
}

json input_coverage_json(const std::map<std::string, double> &metrics) {
    json out = json::object();
    for (const auto &[name, value] : metrics) {
        if (!ends_with(name, kTried)) {
            continue;
        }
        const std::string strategy = name.substr(0, name.size() - std::string(kTried).size());
        const auto of = metrics.find(strategy + kReachable);
        out[strategy] = {
            {"tried", static_cast<int64_t>(value)},
            {"of", of != metrics.end() ? json(static_cast<int64_t>(of->second)) : json()}};
    }
    return out;
}

std::string input_coverage_text(const std::map<std::string, double> &metrics, int runs) {
    std::string text;
    const json coverage = input_coverage_json(metrics);
    for (const auto &[strategy, counts] : coverage.items()) {
        const std::string noun = strategy == "misuse"          ? " kinds"
                                 : strategy == "legacy_schema" ? " changes"
                                                               : " categories";
        text += text.empty() ? "" : ", ";
        text += std::to_string(counts["tried"].get<int64_t>());
        if (!counts["of"].is_null()) {
            text += " of " + std::to_string(counts["of"].get<int64_t>());
        }
        text.append(" ").append(strategy).append(noun);
    }
    if (text.empty()) {
        return "";
    }
    text = std::to_string(runs) + (runs == 1 ? " input, " : " inputs, ") + text;
    const auto made = metrics.find("feedback_runs");
    if (made != metrics.end()) {
        const auto kept = metrics.find("feedback_inputs");
        const auto inputs = static_cast<int64_t>(kept != metrics.end() ? kept->second : 0);
        text.append("; coverage feedback: ")
            .append(std::to_string(inputs))
            .append(inputs == 1 ? " input" : " inputs")
            .append(" that reached new lines, ")
            .append(std::to_string(static_cast<int64_t>(made->second)))
            .append(" runs of their edits");
    }
    return text;
}

}  // namespace sbx::engine
