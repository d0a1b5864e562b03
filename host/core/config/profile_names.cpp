// Canonical profile names and aliases, shared by the settings loader and the presets.
#include "config/profile_names.hpp"

#include <utility>

#include "config/suggest.hpp"

namespace sbx::config {
namespace {

// Alias -> canonical name; the names the seed documents used before the canonical ones.
const std::vector<std::pair<std::string, std::string>> &aliases() {
    static const std::vector<std::pair<std::string, std::string>> table = {
        {"high_latency", "high_latency_api"},
        {"malicious_data", "hostile_input"},
        {"schema_mismatch", "schema_drift"},
        {"upstream_failure", "flaky_upstream"}};
    return table;
}

}  // namespace

const std::vector<std::string> &canonical_profile_names() {
    static const std::vector<std::string> names = {"high_latency_api", "hostile_input",
                                                   "user_misuse",      "concurrency_spike",
                                                   "schema_drift",     "flaky_upstream"};
    return names;
}

std::optional<std::string> canonical_profile_name(std::string_view name_or_alias) {
    for (const auto &name : canonical_profile_names()) {
        if (name == name_or_alias) {
            return name;
        }
    }
    for (const auto &[alias, name] : aliases()) {
        if (alias == name_or_alias) {
            return name;
        }
    }
    return std::nullopt;
}

std::string profile_name_hint(std::string_view unknown) {
    std::vector<std::string> all = canonical_profile_names();
    std::vector<std::string> alias_names;
    for (const auto &[alias, name] : aliases()) {
        all.push_back(alias);
        alias_names.push_back(alias);
    }
    return did_you_mean(unknown, all) + "write one of " + join(canonical_profile_names()) +
           " (aliases: " + join(alias_names) + ")";
}

}  // namespace sbx::config
