// One recorded run, read back whole: what `replay` needs to run it again.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "store/store.hpp"

namespace sbx::store {

struct RecordedStep {
    std::string name;
    std::string status;
    bool passed = false;
    int signal = 0;      // 0 when none
    std::string stderr;  // what the step wrote to stderr, as its result kept it
    int exit_code = 0;   // 128 + the signal when killed
};

struct RecordedRun {
    int64_t id = 0;
    int64_t session_id = 0;
    std::string command;  // of its session
    int64_t seed = 0;     // of its session
    std::string workflow;
    std::string preset_name;
    nlohmann::json preset_body;
    std::string flag;
    int repetition = 0;
    nlohmann::json inputs;
    nlohmann::json input_meta;  // null when the stub strategy said nothing
    bool passed = false;
    std::string failed_step;
    std::string outcome;  // the run's outcome class; "" for runs recorded before v5
    std::vector<RecordedStep> steps;
};

// nullopt when there is no run with that id.
std::optional<RecordedRun> find_run(Store &store, int64_t run_id);

}  // namespace sbx::store
