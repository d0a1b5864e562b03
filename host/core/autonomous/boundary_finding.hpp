// find-boundaries (docs/user-guide.md "find-boundaries"): per axis, probes of one preset
// each (a cell of `runs` runs) find the mildest setting that breaks the workflow and the
// harshest that holds. A bracket kept from an earlier search (preset_boundaries.json) is
// checked first; the new brackets replace the kept ones, for the next search and for the
// autonomous loop, which runs both sides of each.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/settings.hpp"
#include "engine/matrix_runner.hpp"
#include "engine/plugin_set.hpp"
#include "presets/boundary_axes.hpp"
#include "reports/preset_boundaries.hpp"

namespace sbx::autonomous {

struct BoundarySearch {
    std::vector<presets::BoundaryAxis> axes;
    int runs = 3;  // per probe
    int64_t seed = 0;
    double break_below = 1.0;  // a probe whose ROI is below this breaks the workflow
    std::string strategy;      // bisect or grid
};

// Told of the search as it goes (--preset-debug shows every probe); called on its thread.
class BoundaryObserver {
  public:
    virtual ~BoundaryObserver() = default;
    virtual void bracket_kept(const presets::BoundaryAxis &axis, double holds, double breaks) = 0;
    virtual void probed(const presets::BoundaryAxis &axis, const std::string &value, double roi,
                        bool broke) = 0;
    // `description` says where the boundary is; `probes` cells of the search's runs each.
    virtual void axis_done(const presets::BoundaryAxis &axis, const std::string &description,
                           int probes) = 0;
};

struct BoundaryFindings {
    // One entry per axis: key, kind, holds, breaks, description, probes, runs.
    nlohmann::json axes = nlohmann::json::array();
    // "breaks at CONCURRENCY_LEVEL >= 3; holds at MEMORY_LIMIT >= 12Mi", one phrase an axis.
    std::string summary;
};

// Searches every axis of `search` on `workflow` with `runner`, and keeps each bracket
// found in `boundaries` (the caller saves them).
BoundaryFindings find_boundaries(engine::MatrixRunner &runner, engine::PluginSet &plugins,
                                 const config::Workflow &workflow, const BoundarySearch &search,
                                 reports::PresetBoundaries &boundaries, BoundaryObserver &observer);

}  // namespace sbx::autonomous
