// A run's cells in roi_history.json.
#include "reports/run_history.hpp"

#include "reports/roi_history.hpp"
#include "reports/scenario_recording.hpp"

namespace sbx::reports {

void extend_roi_history(store::Store &store, const std::filesystem::path &data_dir,
                        const std::vector<engine::CellSummary> &cells) {
    const auto history_path = data_dir / "roi_history.json";
    auto history = load_roi_history(history_path);
    for (const auto &cell : cells) {
        const auto previous = store.roi_history(cell.workflow, cell.preset, "on");
        const double before = previous.size() >= 2 ? previous[previous.size() - 2] : 0.0;
        append_series(history, cell.preset, cell.roi, cell.roi - before, cell.roi, cell.metrics);
    }
    save_roi_history(history_path, history);
}

}  // namespace sbx::reports
