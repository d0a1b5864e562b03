// The numeric preset keys a failure-boundary search walks (docs/semantics.md "Failure
// boundaries"): each from its mildest value to its harshest, to a precision. Sizes are
// searched on a log scale (16Mi and 32Mi are as far apart as 512Mi and 1Gi).
#pragma once

#include <string>
#include <vector>

namespace sbx::presets {

struct BoundaryAxis {
    std::string key;         // the preset key, e.g. CONCURRENCY_LEVEL
    double mild = 0;         // where the search starts; the workflow should hold here
    double harsh = 0;        // the far end; below `mild` for keys where less is harsher
    double precision = 1;    // the bracket width that ends the search (a ratio when geometric)
    bool geometric = false;  // halve the ratio, not the difference
    bool integer = false;    // only whole values
    std::string unit;        // appended to the value in the preset ("Mi"), "" for none
};

// The built-in axes, in the order a search without --axis walks them.
const std::vector<BoundaryAxis> &builtin_axes();

// The names of the built-in axes that a search without --axis uses: the ones every
// executor acts on without a network namespace or upstreams.
std::vector<std::string> default_axis_keys();

// KEY (a built-in axis) or KEY:MILD:HARSH[:PRECISION] (any numeric key; a built-in key keeps
// its unit and scale). Throws InputError naming the spec and what to write.
BoundaryAxis parse_axis(const std::string &spec);

// `value` as the preset holds it: whole numbers without decimals, the unit appended.
std::string axis_value_text(const BoundaryAxis &axis, double value);

// True when `value` is at least as harsh as `than` on this axis.
bool at_least_as_harsh(const BoundaryAxis &axis, double value, double than);

}  // namespace sbx::presets
