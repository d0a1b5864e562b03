// What --recover finds of each planned cell in the interrupted session: the cell itself
// when it was recorded, and otherwise the repetitions already committed, so that only the
// missing repetitions run. Seeded inputs make every repetition reproducible, so a kept run
// is the run the uninterrupted matrix would have made.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/cell_work.hpp"
#include "store/session_progress.hpp"

namespace sbx::engine {

struct RecoveredCell {
    const store::RecordedCell *recorded = nullptr;  // the cell was finished and recorded
    std::map<int, RunResult> runs;                  // committed repetitions
};

class SessionRecovery {
  public:
    explicit SessionRecovery(store::SessionProgress progress);

    // What belongs to the cell of (workflow, preset_id, flag) with `repetitions` runs. Each
    // recorded cell and each run is handed out once, in the order they were recorded.
    RecoveredCell take(const std::string &workflow, int64_t preset_id, const std::string &flag,
                       int repetitions);

    [[nodiscard]] int kept_cells() const { return kept_cells_; }
    [[nodiscard]] int kept_runs() const { return kept_runs_; }

  private:
    store::SessionProgress progress_;
    std::vector<bool> cell_taken_;
    std::vector<bool> run_taken_;
    int kept_cells_ = 0;
    int kept_runs_ = 0;
};

}  // namespace sbx::engine
