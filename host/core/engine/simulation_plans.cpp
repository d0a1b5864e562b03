// Planning workflow and section simulations.
#include "engine/simulation_plans.hpp"

#include <glob.h>
#include <sys/stat.h>

#include <spdlog/spdlog.h>
#include <algorithm>
#include <set>

#include "presets/canonical.hpp"
#include "presets/keyword_profiles.hpp"
#include "presets/selection.hpp"
#include "scoring/tracker.hpp"
#include "util/errors.hpp"

namespace sbx::engine {

using nlohmann::json;

namespace {

// The executables matched by the settings' target globs, relative to the repository.
std::vector<std::filesystem::path> expand_targets(const config::Settings &settings,
                                                  const std::filesystem::path &repo) {
    std::vector<std::filesystem::path> found;
    for (const auto &pattern : settings.targets) {
        const std::string full =
            pattern.empty() || pattern.front() == '/' ? pattern : (repo / pattern).string();
        glob_t matches{};
        const int status = ::glob(full.c_str(), 0, nullptr, &matches);
        size_t executables = 0;
        for (size_t i = 0; status == 0 && i < matches.gl_pathc; ++i) {
            struct stat info {};
            const char *path = matches.gl_pathv[i];
            if (::stat(path, &info) == 0 && S_ISREG(info.st_mode) && (info.st_mode & 0111)) {
                found.emplace_back(path);
                ++executables;
            }
        }
        ::globfree(&matches);
        if (executables == 0) {
            throw InputError(settings.source + ": targets: '" + pattern +
                             "' matches no executable file under " + repo.string() +
                             "; fix the glob or set SANDBOX_REPO_PATH to the repository");
        }
    }
    return found;
}

}  // namespace

Simulation workflow_simulation(const config::Settings &settings,
                               const presets::SelectionInputs &selection) {
    if (settings.workflows.empty()) {
        throw InputError("run --all-workflows: " + settings.source + " defines no workflows");
    }
    Simulation simulation{"workflows", "all_workflows", {}, {}};
    simulation.presets = presets::choose_presets(selection);
    std::vector<std::string> names;
    for (const auto &preset : simulation.presets) {
        names.push_back(preset.name);
    }
    for (const auto &workflow : settings.workflows) {
        simulation.parts.push_back({workflow, names});
    }
    return simulation;
}

Simulation section_simulation(const config::Settings &settings,
                              const presets::SelectionInputs &selection) {
    if (settings.targets.empty()) {
        throw InputError("run --sections: " + settings.source +
                         " lists no targets; add e.g. targets: [\"bin/*\"]");
    }
    const std::filesystem::path repo = settings.repo_path.empty()
                                           ? std::filesystem::current_path()
                                           : std::filesystem::path(settings.repo_path);
    const auto targets = expand_targets(settings, repo);

    // A custom preset list (files, SANDBOX_ENV_PRESETS, settings) is the base; the low
    // canonical preset of every profile it leaves out is added.
    const bool custom = !selection.preset_files.empty() || !settings.presets.empty() ||
                        !settings.env_presets.empty();
    std::vector<presets::Preset> base;
    if (custom) {
        base = presets::choose_presets(selection);
    }
    // Every section meets every canonical profile (the guarantee); the profiles its path's
    // keywords name it meets at high severity too.
    std::vector<std::vector<std::string>> emphasized;
    std::set<std::string> high_profiles;
    for (const auto &target : targets) {
        emphasized.push_back(presets::keyword_matches_for_path(
            target.lexically_relative(repo).string(), settings.keyword_profiles));
        high_profiles.insert(emphasized.back().begin(), emphasized.back().end());
    }
    std::vector<json> bodies;
    bodies.reserve(base.size());
    for (const auto &preset : base) {
        bodies.push_back(preset.body);
    }
    const size_t custom_count = bodies.size();
    bodies = presets::add_missing_canonical(std::move(bodies), presets::canonical_profile_names(),
                                            settings.fail_on_missing_scenarios);
    const size_t high_start = bodies.size();
    std::vector<std::string> high_order;  // the profile of each high preset, canonical order
    for (const auto &profile : presets::canonical_profile_names()) {
        if (high_profiles.count(profile) != 0) {
            bodies.push_back(presets::canonical_preset(profile, presets::Severity::high));
            high_order.push_back(profile);
        }
    }
    Simulation simulation{"sections", "all_sections", {}, {}};
    for (size_t i = 0; i < bodies.size(); ++i) {
        if (i < custom_count) {
            simulation.presets.push_back(base[i]);
        } else if (i < high_start) {
            simulation.presets.push_back(presets::make_preset(bodies[i], "canonical preset", i));
        } else {
            auto high = presets::make_preset(bodies[i], "canonical preset (high)", i);
            high.name += "#high";  // its own series beside the low one of the same scenario
            simulation.presets.push_back(std::move(high));
        }
    }
    presets::make_names_unique(simulation.presets);
    for (size_t t = 0; t < targets.size(); ++t) {
        // Every low or custom preset; a high one where the section's keywords name it.
        std::vector<std::string> names;
        for (size_t i = 0; i < simulation.presets.size(); ++i) {
            if (i < high_start || std::find(emphasized[t].begin(), emphasized[t].end(),
                                            high_order[i - high_start]) != emphasized[t].end()) {
                names.push_back(simulation.presets[i].name);
            }
        }
        simulation.parts.push_back({section_workflow(targets[t], repo), names});
    }
    return simulation;
}

void skip_converged_parts(Simulation &simulation, const std::filesystem::path &flags,
                          const scoring::TrackerSettings &settings) {
    scoring::Tracker tracker(settings);
    tracker.load_flags(flags);
    std::vector<SimulationPart> kept;
    for (auto &part : simulation.parts) {
        if (tracker.converged(part.workflow.name)) {
            spdlog::info("skipping {}: converged (listed in {})", part.workflow.name,
                         flags.string());
        } else {
            kept.push_back(std::move(part));
        }
    }
    simulation.parts = std::move(kept);
}

}  // namespace sbx::engine
