#include "reports/preset_policy.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

#include <nlohmann/json.hpp>

#include "util/atomic_file.hpp"
#include "util/errors.hpp"
#include "util/input_file.hpp"
#include "util/json_input.hpp"

namespace sbx::reports {

using nlohmann::json;

namespace {
constexpr const char *kFormat = "sandbox-runner/preset_policy/1";
}  // namespace

std::filesystem::path preset_policy_path(const std::filesystem::path &data_dir) {
    const char *path = std::getenv("SANDBOX_PRESET_RL_PATH");
    return path != nullptr && *path != '\0' ? std::filesystem::path(path)
                                            : data_dir / "preset_policy.json";
}

PresetPolicy load_preset_policy(const std::filesystem::path &path) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        return {};
    }
    const std::string fix =
        "move it away (or point SANDBOX_PRESET_RL_PATH elsewhere) to start a new policy";
    const json document = parse_json_input(read_input_file(path, "the preset policy", fix),
                                           path.string(), "the preset policy", fix);
    try {
        if (document.at("format") != kFormat) {
            throw InputError(path.string() + ": not a sandbox-runner preset policy; " + fix);
        }
        PresetPolicy policy;
        for (const auto &[workflow, axes] : document.at("workflows").items()) {
            for (const auto &[key, kept] : axes.items()) {
                policy[workflow][key] = {
                    kept.at("kind").get<std::string>(), kept.at("holds").get<double>(),
                    kept.at("breaks").get<double>(),    kept.at("unit").get<std::string>(),
                    kept.at("integer").get<bool>(),     kept.at("probes").get<int>(),
                    kept.at("runs").get<int>()};
            }
        }
        return policy;
    } catch (const json::exception &e) {
        throw InputError(path.string() + ": a damaged preset policy (" + e.what() + "); " + fix);
    }
}

std::vector<json> boundary_preset_bodies(const PresetPolicy &policy,
                                         const std::vector<std::string> &workflows) {
    std::vector<json> bodies;
    std::set<std::string> names;
    for (const auto &workflow : workflows) {
        const auto found = policy.find(workflow);
        if (found == policy.end()) {
            continue;
        }
        for (const auto &[key, kept] : found->second) {
            if (kept.kind != "found") {
                continue;
            }
            for (const double value : {kept.holds, kept.breaks}) {
                char text[48];
                if (kept.integer) {
                    std::snprintf(text, sizeof text, "%lld",
                                  static_cast<long long>(std::llround(value)));
                } else {
                    std::snprintf(text, sizeof text, "%.6g", value);
                }
                const std::string setting = text + kept.unit;
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

void save_preset_policy(const std::filesystem::path &path, const PresetPolicy &policy) {
    json workflows = json::object();
    for (const auto &[workflow, axes] : policy) {
        for (const auto &[key, kept] : axes) {
            workflows[workflow][key] = {{"kind", kept.kind},       {"holds", kept.holds},
                                        {"breaks", kept.breaks},   {"unit", kept.unit},
                                        {"integer", kept.integer}, {"probes", kept.probes},
                                        {"runs", kept.runs}};
        }
    }
    write_file_atomically(path, json{{"format", kFormat}, {"workflows", workflows}}.dump(2) + "\n");
}

}  // namespace sbx::reports
