// How far an unfinished session got: the cells it recorded and the runs it committed.
// `--recover` reads it to run only what is missing.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "store/store.hpp"

namespace sbx::store {

// A recorded cell: which plan it answers, its cell-level metrics and its forecast.
struct RecordedCell {
    int64_t cell_id = 0;
    std::string workflow;
    int64_t preset_id = 0;
    std::string preset_name;
    std::string flag;
    int runs = 0;
    int passed = 0;
    double roi = 0;
    std::string not_applicable;
    std::map<std::string, double> metrics;
    // The forecast recorded with the cell ({method, value, lower, upper}); null when the
    // host died between the two.
    nlohmann::json forecast;
};

// A committed run that carries its cell share (every run recorded since schema 7).
struct CommittedRun {
    int64_t run_id = 0;
    std::string workflow;
    int64_t preset_id = 0;
    std::string flag;
    int repetition = 0;
    bool passed = false;
    std::string cell_share;  // its JSON text (engine/cell_share.hpp reads it)
    std::map<std::string, double> metrics;
};

struct SessionProgress {
    std::vector<RecordedCell> cells;  // in the order they were recorded
    std::vector<CommittedRun> runs;   // in the order they were committed
};

SessionProgress session_progress(Store &store, int64_t session_id);

}  // namespace sbx::store
