// Handing an interrupted session's cells and runs back to the plans they belong to.
#include "engine/session_recovery.hpp"

#include "engine/cell_share.hpp"

namespace sbx::engine {

SessionRecovery::SessionRecovery(store::SessionProgress progress)
    : progress_(std::move(progress)),
      cell_taken_(progress_.cells.size(), false),
      run_taken_(progress_.runs.size(), false) {}

RecoveredCell SessionRecovery::take(const std::string &workflow, int64_t preset_id,
                                    const std::string &flag, int repetitions) {
    RecoveredCell found;
    for (size_t i = 0; i < progress_.cells.size(); ++i) {
        const auto &cell = progress_.cells[i];
        if (!cell_taken_[i] && cell.workflow == workflow && cell.preset_id == preset_id &&
            cell.flag == flag) {
            cell_taken_[i] = true;
            found.recorded = &cell;
            ++kept_cells_;
            break;
        }
    }
    for (size_t i = 0; i < progress_.runs.size(); ++i) {
        const auto &run = progress_.runs[i];
        if (run_taken_[i] || run.workflow != workflow || run.preset_id != preset_id ||
            run.flag != flag || run.repetition < 0 || run.repetition >= repetitions ||
            found.runs.count(run.repetition) != 0) {
            continue;
        }
        run_taken_[i] = true;
        found.runs.emplace(run.repetition, run_result_from(run));
        ++kept_runs_;
    }
    return found;
}

}  // namespace sbx::engine
