// Outcome classes as run metrics and back.
#include "engine/outcome_counts.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/stub_failures.hpp"

namespace sbx::engine {

using nlohmann::json;

namespace {

constexpr const char *kPrefix = "outcome_";

int count_of(double mean, int runs) {
    return static_cast<int>(std::lround(mean * runs));
}

}  // namespace

std::map<std::string, double> outcome_metrics(OutcomeClass outcome, const json &input_meta) {
    const std::string name = std::string(kPrefix) + outcome_name(outcome);
    std::map<std::string, double> metrics{{name, 1.0}};
    for (const auto &tag : input_tags(input_meta)) {
        std::string tagged = name;
        tagged += '.';
        tagged += tag;
        metrics[tagged] = 1.0;
    }
    return metrics;
}

OutcomeCounts outcome_counts(const std::map<std::string, double> &metrics, int runs) {
    OutcomeCounts counts;
    for (const auto outcome : outcome_classes()) {
        const std::string name = std::string(kPrefix) + outcome_name(outcome);
        const auto found = metrics.find(name);
        counts.by_class[outcome_name(outcome)] =
            found == metrics.end() ? 0 : count_of(found->second, runs);
        const std::string tagged = name + ".";
        for (auto it = metrics.lower_bound(tagged);
             it != metrics.end() && it->first.compare(0, tagged.size(), tagged) == 0; ++it) {
            if (const int n = count_of(it->second, runs); n > 0) {
                counts.by_category[it->first.substr(tagged.size())][outcome_name(outcome)] = n;
            }
        }
    }
    return counts;
}

json outcome_counts_json(const OutcomeCounts &counts) {
    json out = json::object();
    for (const auto &[name, n] : counts.by_class) {
        out[name] = n;
    }
    out["by_category"] = counts.by_category;
    return out;
}

std::string outcome_counts_text(const OutcomeCounts &counts) {
    const auto n = [&](const char *name) {
        const auto found = counts.by_class.find(name);
        return found == counts.by_class.end() ? 0 : found->second;
    };
    std::string text = std::to_string(n("rejected")) + " rejected cleanly, " +
                       std::to_string(n("crashed")) + " crashed, " + std::to_string(n("hung")) +
                       " hung";
    if (n("accepted") > 0) {
        text += ", " + std::to_string(n("accepted")) + " accepted";
    }
    if (n("failed") > 0) {
        text += ", " + std::to_string(n("failed")) + " failed otherwise";
    }
    return text;
}

std::string categories_text(const OutcomeCounts &counts, OutcomeClass outcome) {
    std::vector<std::pair<std::string, int>> found;
    for (const auto &[category, by_class] : counts.by_category) {
        if (const auto it = by_class.find(outcome_name(outcome)); it != by_class.end()) {
            found.emplace_back(category, it->second);
        }
    }
    std::stable_sort(found.begin(), found.end(),
                     [](const auto &a, const auto &b) { return a.second > b.second; });
    std::string text;
    for (const auto &[category, n] : found) {
        text += (text.empty() ? "" : ", ") + category + " (" + std::to_string(n) + ")";
    }
    return text.empty() ? "" : std::string(outcome_name(outcome)) + " on " + text;
}

std::string outcome_line(const OutcomeCounts &counts) {
    std::string line = outcome_counts_text(counts);
    for (const auto outcome : {OutcomeClass::crashed, OutcomeClass::hung}) {
        if (auto where = categories_text(counts, outcome); !where.empty()) {
            line += "; " + where;
        }
    }
    return line;
}

}  // namespace sbx::engine
