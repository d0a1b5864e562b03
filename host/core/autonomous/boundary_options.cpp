// Checking find-boundaries' options, each refusal naming the option and its range, and the
// search they describe.
#include "autonomous/boundary_options.hpp"

#include "config/setting_values.hpp"
#include "presets/boundary_axes.hpp"
#include "util/errors.hpp"

namespace sbx::autonomous {

void check_boundary_options(BoundaryOptions &options, const std::set<std::string> &written) {
    const auto fail = [](const std::string &what) { throw InputError("find-boundaries: " + what); };
    if (options.runs < 1 || options.runs > 100000) {
        fail("--runs " + std::to_string(options.runs) + " must be from 1 to 100000");
    }
    if (written.count("seed") && options.seed < 0) {
        fail("--seed must be a whole number from 0 up");
    }
    if (written.count("workers") &&
        (options.workers < 1 || options.workers > static_cast<int>(config::kMaxWorkers))) {
        fail("--workers must be from 1 to " + std::to_string(config::kMaxWorkers));
    }
    if (!(options.break_below > 0 && options.break_below <= 1)) {
        fail("--break-below must be an ROI in (0, 1], e.g. --break-below 0.9");
    }
    if (options.strategy.empty()) {
        options.strategy = "bisect";
    } else if (options.strategy != "bisect" && options.strategy != "grid") {
        fail("--strategy " + options.strategy + ": write bisect or grid");
    }
}

BoundarySearch boundary_search(const BoundaryOptions &options,
                               const std::vector<std::string> &axis_specs, int64_t seed) {
    BoundarySearch search;
    for (const auto &spec : axis_specs.empty() ? presets::default_axis_keys() : axis_specs) {
        search.axes.push_back(presets::parse_axis(spec));
    }
    search.runs = options.runs;
    search.seed = seed;
    search.break_below = options.break_below;
    search.strategy = options.strategy;
    return search;
}

}  // namespace sbx::autonomous
