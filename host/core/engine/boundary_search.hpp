// Finding where a workflow breaks along one preset axis (docs/semantics.md "Failure
// boundaries"): probes of one setting each, until the mildest breaking setting and the
// harshest holding one are within the axis's precision. Assumes the workflow, once broken,
// stays broken at harsher settings; each result says which end was measured.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "presets/boundary_axes.hpp"

namespace sbx::engine {

struct BoundaryProbe {
    double value = 0;
    bool broke = false;
    double roi = 0;
};

struct BoundaryResult {
    enum class Kind {
        found,              // holds at `holds`, breaks at `breaks`, within the precision
        holds_everywhere,   // holds even at the harshest setting
        breaks_everywhere,  // breaks even at the mildest setting
    };
    Kind kind = Kind::found;
    double holds = 0;                   // the harshest setting probed that held
    double breaks = 0;                  // the mildest setting probed that broke
    std::vector<BoundaryProbe> probes;  // in the order they ran
};

// Runs the workflow at one setting: did it break, and its ROI there.
using ProbeFunction = std::function<BoundaryProbe(double value)>;

// Bisection: the mild end, the harsh end, then halving the bracket (its ratio on a geometric
// axis) until it is within the precision. With `known` (a bracket found before: holds,
// breaks), both of its ends are probed first; when they still hold and break, the search
// goes on inside it, else it starts over from the axis's ends.
BoundaryResult bisect_boundary(const presets::BoundaryAxis &axis, const ProbeFunction &probe,
                               std::optional<std::pair<double, double>> known = std::nullopt);

// The peer a user would otherwise write: every setting of the axis's grid (mild to harsh in
// steps of the precision), mildest first, until the first that breaks.
BoundaryResult scan_boundary(const presets::BoundaryAxis &axis, const ProbeFunction &probe);

// The settings of that grid, mildest first.
std::vector<double> grid_values(const presets::BoundaryAxis &axis);

// "breaks at CONCURRENCY_LEVEL >= 3 (holds at 2)", "holds at every MEMORY_LIMIT down to 4Mi".
std::string describe_boundary(const presets::BoundaryAxis &axis, const BoundaryResult &result);

}  // namespace sbx::engine
