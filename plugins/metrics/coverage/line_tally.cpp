// Tallying the lines a cell's runs reached, overall and by input category.
#include "line_tally.hpp"

#include <nlohmann/json.hpp>

namespace sbx::coverage {

using nlohmann::json;

std::set<std::string> input_categories(const json &input_meta) {
    std::set<std::string> categories;
    if (!input_meta.is_object()) {
        return categories;
    }
    for (const auto &[strategy, inputs] : input_meta.items()) {
        if (!inputs.is_object()) {
            continue;
        }
        for (const auto &[name, meta] : inputs.items()) {
            if (!meta.is_object() || !meta.contains("category") || !meta["category"].is_string()) {
                continue;
            }
            std::string category;
            for (const char c : meta["category"].get<std::string>()) {
                const bool plain = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
                category +=
                    plain ? c : (c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : '_');
            }
            if (!category.empty()) {
                categories.insert(category);
            }
        }
    }
    return categories;
}

void LineTally::add_run(const LineCoverage &run, const json &input_meta) {
    cell_.merge(run);
    for (const auto &category : input_categories(input_meta)) {
        by_category_[category].insert(run.reached.begin(), run.reached.end());
    }
}

size_t count_new(const std::set<std::string> &lines, const std::set<std::string> &known) {
    size_t fresh = 0;
    for (const auto &line : lines) {
        fresh += known.count(line) == 0 ? 1 : 0;
    }
    return fresh;
}

}  // namespace sbx::coverage
