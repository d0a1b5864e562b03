// The failure-boundary search over a workflow's axes.
#include "autonomous/boundary_finding.hpp"

#include <optional>
#include <utility>

#include "engine/boundary_search.hpp"
#include "engine/plugin_resolution.hpp"
#include "presets/preset.hpp"

namespace sbx::autonomous {

using nlohmann::json;

namespace {

const char *kind_name(engine::BoundaryResult::Kind kind) {
    switch (kind) {
        case engine::BoundaryResult::Kind::found:
            return "found";
        case engine::BoundaryResult::Kind::holds_everywhere:
            return "holds_everywhere";
        case engine::BoundaryResult::Kind::breaks_everywhere:
            return "breaks_everywhere";
    }
    return "found";
}

// The short form for the closing sentence: "breaks at CONCURRENCY_LEVEL >= 3" where more
// is harsher, "holds at MEMORY_LIMIT >= 12Mi" where less is.
std::string summary_phrase(const presets::BoundaryAxis &axis,
                           const engine::BoundaryResult &result) {
    if (result.kind != engine::BoundaryResult::Kind::found) {
        return engine::describe_boundary(axis, result);
    }
    return axis.harsh > axis.mild
               ? "breaks at " + axis.key + " >= " + presets::axis_value_text(axis, result.breaks)
               : "holds at " + axis.key + " >= " + presets::axis_value_text(axis, result.holds);
}

// A kept bracket is only a head start on the same axis: in this range, in this direction.
std::optional<std::pair<double, double>> usable_bracket(
    const presets::BoundaryAxis &axis, const std::map<std::string, reports::KeptBoundary> &kept) {
    const auto found = kept.find(axis.key);
    const auto within = [&](double value) {
        return presets::at_least_as_harsh(axis, value, axis.mild) &&
               presets::at_least_as_harsh(axis, axis.harsh, value);
    };
    if (found == kept.end()) {
        return std::nullopt;
    }
    const auto &bracket = found->second;
    if (bracket.kind == "found" && bracket.unit == axis.unit && within(bracket.holds) &&
        within(bracket.breaks) && bracket.breaks != bracket.holds &&
        presets::at_least_as_harsh(axis, bracket.breaks, bracket.holds)) {
        return std::pair(bracket.holds, bracket.breaks);
    }
    return std::nullopt;
}

json axis_report(const presets::BoundaryAxis &axis, const engine::BoundaryResult &result,
                 const std::string &description, int runs_per_probe) {
    json probes = json::array();
    for (const auto &done : result.probes) {
        probes.push_back({{"value", presets::axis_value_text(axis, done.value)},
                          {"roi", done.roi},
                          {"broke", done.broke}});
    }
    const int count = static_cast<int>(result.probes.size());
    return {{"key", axis.key},
            {"kind", kind_name(result.kind)},
            {"holds", result.kind == engine::BoundaryResult::Kind::breaks_everywhere
                          ? json()
                          : json(presets::axis_value_text(axis, result.holds))},
            {"breaks", result.kind == engine::BoundaryResult::Kind::holds_everywhere
                           ? json()
                           : json(presets::axis_value_text(axis, result.breaks))},
            {"description", description},
            {"probes", probes},
            {"runs", count * runs_per_probe}};
}

}  // namespace

BoundaryFindings find_boundaries(engine::MatrixRunner &runner, engine::PluginSet &plugins,
                                 const config::Workflow &workflow, const BoundarySearch &search,
                                 reports::PresetBoundaries &boundaries,
                                 BoundaryObserver &observer) {
    BoundaryFindings findings;
    for (const auto &axis : search.axes) {
        const engine::ProbeFunction probe = [&](double value) {
            const std::string text = presets::axis_value_text(axis, value);
            const auto preset = presets::make_preset(
                json{{"SCENARIO_NAME", axis.key + "=" + text}, {axis.key, text}},
                "find-boundaries --axis " + axis.key, 0);
            engine::resolve_plugins_for(plugins, {&workflow}, {preset});
            const auto cells = runner.run({{&workflow, preset, {search.runs, search.seed, false}}});
            const double roi = cells.front().roi;
            const bool broke = roi < search.break_below;
            observer.probed(axis, text, roi, broke);
            return engine::BoundaryProbe{value, broke, roi};
        };
        const auto known = usable_bracket(axis, boundaries[workflow.name]);
        if (known) {
            observer.bracket_kept(axis, known->first, known->second);
        }
        const auto result = search.strategy == "grid" ? engine::scan_boundary(axis, probe)
                                                      : engine::bisect_boundary(axis, probe, known);
        const int probes = static_cast<int>(result.probes.size());
        boundaries[workflow.name][axis.key] = {
            kind_name(result.kind), result.holds, result.breaks,       axis.unit,
            axis.integer,           probes,       probes * search.runs};
        const std::string description = engine::describe_boundary(axis, result);
        findings.axes.push_back(axis_report(axis, result, description, search.runs));
        findings.summary += (findings.summary.empty() ? "" : "; ") + summary_phrase(axis, result);
        observer.axis_done(axis, description, probes);
    }
    return findings;
}

}  // namespace sbx::autonomous
