// Shrinking the polyglot failures of a scenario matrix.
#include "reports/polyglot_shrinks.hpp"

#include <spdlog/spdlog.h>

#include "engine/input_shrink.hpp"
#include "engine/recorded_shrink.hpp"
#include "store/run_lookup.hpp"

namespace sbx::reports {

void shrink_polyglot_failures(const config::Settings &settings, plugins::Registry &registry,
                              store::Store &store, const config::Workflow &workflow,
                              ScenarioRun &run, int max_runs) {
    for (const auto &cells : run.cells) {
        if (!cells.robustness || cells.on.polyglot_failed_run == 0) {
            continue;
        }
        const auto original = store::find_run(store, cells.on.polyglot_failed_run);
        if (!original) {
            continue;
        }
        try {
            const auto shrunk = engine::shrink_recorded_run(settings, registry, store, *original,
                                                            workflow, max_runs);
            if (!shrunk.result.reproducible) {
                spdlog::info(
                    "{}: run {} (a polyglot failure) did not fail the same way again; "
                    "not shrunk",
                    cells.scenario, original->id);
                continue;
            }
            nlohmann::json entry{{"original_run", original->id},
                                 {"run", shrunk.minimal_run},
                                 {"runs", shrunk.result.runs},
                                 {"minimal", shrunk.result.minimal},
                                 {"inputs", shrunk.result.inputs},
                                 {"size", engine::inputs_size(shrunk.result.inputs)},
                                 {"category", ""},
                                 {"slot", ""}};
            for (const auto &[slot, category] : shrunk.belongs_to.items()) {
                entry["category"] = category;
                entry["slot"] = slot;
                break;  // the first slot in name order; a polyglot fills one per set
            }
            run.shrunk[cells.scenario] = entry;
        } catch (const std::exception &e) {
            spdlog::warn("{}: shrinking run {} (a polyglot failure) failed: {}", cells.scenario,
                         original->id, e.what());
        }
    }
}

}  // namespace sbx::reports
