#include "reports/preset_boundaries.hpp"

#include <cmath>
#include <cstdio>
#include <set>

#include <nlohmann/json.hpp>

#include "util/atomic_file.hpp"
#include "util/errors.hpp"
#include "util/input_file.hpp"
#include "util/json_input.hpp"

namespace sbx::reports {

using nlohmann::json;

namespace {

constexpr const char *kFormat = "sandbox-runner/preset_boundaries/1";
// The preset policy's format before adapt-presets learned: the same document.
constexpr const char *kLegacyFormat = "sandbox-runner/preset_policy/1";

PresetBoundaries boundaries_from(const json &document, const std::filesystem::path &path,
                                 const std::string &fix) {
    try {
        PresetBoundaries kept;
        for (const auto &[workflow, axes] : document.at("workflows").items()) {
            for (const auto &[key, entry] : axes.items()) {
                kept[workflow][key] = {
                    entry.at("kind").get<std::string>(), entry.at("holds").get<double>(),
                    entry.at("breaks").get<double>(),    entry.at("unit").get<std::string>(),
                    entry.at("integer").get<bool>(),     entry.at("probes").get<int>(),
                    entry.at("runs").get<int>()};
            }
        }
        return kept;
    } catch (const json::exception &e) {
        throw InputError(path.string() + ": damaged failure boundaries (" + e.what() + "); " + fix);
    }
}

json read_document(const std::filesystem::path &path, const std::string &fix) {
    return parse_json_input(read_input_file(path, "the failure boundaries", fix), path.string(),
                            "the failure boundaries", fix);
}

}  // namespace

std::filesystem::path preset_boundaries_path(const std::filesystem::path &data_dir) {
    return data_dir / "preset_boundaries.json";
}

PresetBoundaries load_preset_boundaries(const std::filesystem::path &path,
                                        const std::filesystem::path &legacy_policy) {
    const std::string fix = "move it away to start the boundaries afresh";
    std::error_code ec;
    if (std::filesystem::exists(path, ec)) {
        const json document = read_document(path, fix);
        if (!document.is_object() || (document.value("format", json()) != kFormat &&
                                      document.value("format", json()) != kLegacyFormat)) {
            throw InputError(path.string() + ": not sandbox-runner failure boundaries; " + fix);
        }
        return boundaries_from(document, path, fix);
    }
    if (!legacy_policy.empty() && std::filesystem::exists(legacy_policy, ec)) {
        const json document = read_document(legacy_policy, fix);
        if (document.is_object() && document.value("format", json()) == kLegacyFormat) {
            return boundaries_from(document, legacy_policy, fix);
        }
    }
    return {};
}

std::vector<json> boundary_preset_bodies(const PresetBoundaries &kept,
                                         const std::vector<std::string> &workflows) {
    std::vector<json> bodies;
    std::set<std::string> names;
    for (const auto &workflow : workflows) {
        const auto found = kept.find(workflow);
        if (found == kept.end()) {
            continue;
        }
        for (const auto &[key, boundary] : found->second) {
            if (boundary.kind != "found") {
                continue;
            }
            for (const double value : {boundary.holds, boundary.breaks}) {
                char text[48];
                if (boundary.integer) {
                    std::snprintf(text, sizeof text, "%lld",
                                  static_cast<long long>(std::llround(value)));
                } else {
                    std::snprintf(text, sizeof text, "%.6g", value);
                }
                const std::string setting = text + boundary.unit;
                std::string name = key;
                name += '=';
                name += setting;
                if (names.insert(name).second) {
                    bodies.push_back({{"SCENARIO_NAME", name}, {key, setting}});
                }
            }
        }
    }
    return bodies;
}

void save_preset_boundaries(const std::filesystem::path &path, const PresetBoundaries &kept) {
    json workflows = json::object();
    for (const auto &[workflow, axes] : kept) {
        for (const auto &[key, boundary] : axes) {
            workflows[workflow][key] = {{"kind", boundary.kind},       {"holds", boundary.holds},
                                        {"breaks", boundary.breaks},   {"unit", boundary.unit},
                                        {"integer", boundary.integer}, {"probes", boundary.probes},
                                        {"runs", boundary.runs}};
        }
    }
    write_file_atomically(path, json{{"format", kFormat}, {"workflows", workflows}}.dump(2) + "\n");
}

}  // namespace sbx::reports
