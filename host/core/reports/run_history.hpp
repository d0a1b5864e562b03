// What `run WORKFLOW` adds to roi_history.json: each cell extends its preset's series, its
// delta against the previous cell of the same workflow and preset as metrics.db holds it.
#pragma once

#include <filesystem>
#include <vector>

#include "engine/cell_work.hpp"
#include "store/store.hpp"

namespace sbx::reports {

// Reads, extends and writes <data_dir>/roi_history.json.
void extend_roi_history(store::Store &store, const std::filesystem::path &data_dir,
                        const std::vector<engine::CellSummary> &cells);

}  // namespace sbx::reports
