// find-boundaries' numbers as a command line gives them, checked: probes of 1 to 100000
// runs, a seed from 0, workers within the host's limit, an ROI bar in (0, 1], a strategy.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "autonomous/boundary_finding.hpp"

namespace sbx::autonomous {

struct BoundaryOptions {
    int runs = 3;       // per probe
    int64_t seed = -1;  // -1: drawn
    int workers = 0;    // 0: the settings'
    double break_below = 1.0;
    std::string strategy;  // bisect or grid; "" for bisect
};

// `written`: the names of the options the command line wrote out (without "--"); a seed or
// workers not written are not checked. Sets the strategy to bisect when none was given.
// Throws InputError "find-boundaries: --OPTION ..." for the first option out of range.
void check_boundary_options(BoundaryOptions &options, const std::set<std::string> &written);

// The search the checked options describe, over the axes `axis_specs` name (KEY or
// KEY:MILD:HARSH[:PRECISION]; none: the default axes), its runs' inputs drawn from `seed`.
// Throws InputError for an axis that is not one.
BoundarySearch boundary_search(const BoundaryOptions &options,
                               const std::vector<std::string> &axis_specs, int64_t seed);

}  // namespace sbx::autonomous
