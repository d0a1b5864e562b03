// Keyword matching on target paths and the canonical-coverage rule of section simulations.
#include "presets/keyword_profiles.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "config/profile_names.hpp"
#include "presets/canonical.hpp"
#include "util/errors.hpp"

namespace sbx::presets {
namespace {

bool is_lower(char c) {
    return std::islower(static_cast<unsigned char>(c)) != 0;
}
bool is_upper(char c) {
    return std::isupper(static_cast<unsigned char>(c)) != 0;
}
bool is_digit(char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

std::string lower_case(std::string text) {
    for (char &c : text) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return text;
}

// Canonical names in canonical order, each once.
std::vector<std::string> in_canonical_order(const std::set<std::string> &names) {
    std::vector<std::string> ordered;
    for (const auto &name : canonical_profile_names()) {
        if (names.count(name) != 0) {
            ordered.push_back(name);
        }
    }
    return ordered;
}

// Adds the canonical profiles `preset` covers (see profiles_covered_by).
void add_covered(const nlohmann::json &preset, std::set<std::string> &covered) {
    const auto name = preset.find("SCENARIO_NAME");
    if (name == preset.end() || !name->is_string()) {
        return;
    }
    const std::string text = name->get<std::string>();
    size_t start = 0;
    while (start <= text.size()) {
        const size_t end = std::min(text.find('+', start), text.size());
        if (auto canonical = config::canonical_profile_name(text.substr(start, end - start))) {
            covered.insert(*canonical);
        }
        start = end + 1;
    }
}

}  // namespace

const std::map<std::string, std::vector<std::string>> &builtin_keyword_profiles() {
    static const std::map<std::string, std::vector<std::string>> map = [] {
        const std::vector<std::string> latency = {"high_latency_api"};
        const std::vector<std::string> schema = {"schema_drift"};
        const std::vector<std::string> concurrency = {"concurrency_spike"};
        const std::vector<std::string> upstream = {"flaky_upstream"};
        const std::vector<std::string> &all = canonical_profile_names();
        return std::map<std::string, std::vector<std::string>>{
            {"api", latency},
            {"network", latency},
            {"cache", latency},
            {"parser", {"hostile_input", "user_misuse"}},
            {"input", {"hostile_input"}},
            {"concurrency", concurrency},
            {"thread", concurrency},
            {"database", {"high_latency_api", "concurrency_spike", "schema_drift"}},
            {"auth", {"user_misuse", "hostile_input"}},
            {"schema", schema},
            {"legacy", schema},
            {"flaky", upstream},
            {"upstream", upstream},
            {"util", all},
            {"utils", all},
            {"common", all},
            {"misc", all},
            {"shared", all},
        };
    }();
    return map;
}

std::vector<std::string> path_words(const std::string &path) {
    std::vector<std::string> words;
    std::string word;
    const auto finish = [&] {
        if (!word.empty()) {
            words.push_back(lower_case(word));
            word.clear();
        }
    };
    for (size_t i = 0; i < path.size(); ++i) {
        const char c = path[i];
        if (!std::isalnum(static_cast<unsigned char>(c))) {
            finish();
            continue;
        }
        if (!word.empty() && is_upper(c)) {
            const char before = word.back();
            const bool after_lower = is_lower(before) || is_digit(before);
            const bool acronym_end =
                is_upper(before) && i + 1 < path.size() && is_lower(path[i + 1]);
            if (after_lower || acronym_end) {
                finish();
            }
        }
        word += c;
    }
    finish();
    return words;
}

std::vector<std::string> keyword_matches_for_path(
    const std::string &target_path,
    const std::map<std::string, std::vector<std::string>> &yaml_overrides) {
    std::map<std::string, std::vector<std::string>> keywords = builtin_keyword_profiles();
    for (const auto &[keyword, profiles] : yaml_overrides) {
        if (profiles.empty()) {
            keywords.erase(lower_case(keyword));
        } else {
            keywords[lower_case(keyword)] = profiles;
        }
    }
    std::set<std::string> chosen;
    bool matched = false;
    for (const auto &word : path_words(target_path)) {
        const auto found = keywords.find(word);
        if (found == keywords.end()) {
            continue;
        }
        matched = true;
        for (const auto &profile : found->second) {
            chosen.insert(resolve_profile_alias(profile));
        }
    }
    return matched ? in_canonical_order(chosen) : std::vector<std::string>{};
}

std::vector<std::string> profiles_for_path(
    const std::string &target_path,
    const std::map<std::string, std::vector<std::string>> &yaml_overrides) {
    auto matched = keyword_matches_for_path(target_path, yaml_overrides);
    return matched.empty() ? canonical_profile_names() : matched;
}

std::vector<std::string> profiles_covered_by(const nlohmann::json &preset) {
    std::set<std::string> covered;
    add_covered(preset, covered);
    return in_canonical_order(covered);
}

std::vector<nlohmann::json> add_missing_canonical(std::vector<nlohmann::json> presets,
                                                  const std::vector<std::string> &wanted_profiles,
                                                  bool fail_on_missing) {
    std::set<std::string> covered;
    for (const auto &preset : presets) {
        add_covered(preset, covered);
    }
    std::set<std::string> wanted;
    for (const auto &profile : wanted_profiles) {
        wanted.insert(resolve_profile_alias(profile));
    }
    std::vector<std::string> missing;
    for (const auto &profile : in_canonical_order(wanted)) {
        if (covered.count(profile) == 0) {
            missing.push_back(profile);
        }
    }
    if (!missing.empty() && fail_on_missing) {
        std::string names;
        for (const auto &profile : missing) {
            names += (names.empty() ? "" : ", ") + profile;
        }
        throw InputError(
            "SANDBOX_FAIL_ON_MISSING_SCENARIOS=1: no preset covers the canonical profile(s) " +
            names +
            " (a preset covers a profile when its SCENARIO_NAME names it); add presets with "
            "those SCENARIO_NAMEs, or unset SANDBOX_FAIL_ON_MISSING_SCENARIOS to have their "
            "low canonical presets added");
    }
    for (const auto &profile : missing) {
        presets.push_back(canonical_preset(profile, Severity::low));
    }
    return presets;
}

}  // namespace sbx::presets
