// Finding a recorded run and setting up its run again.
#include "engine/recorded_run.hpp"

#include "util/errors.hpp"

namespace sbx::engine {

using nlohmann::json;

std::filesystem::path recorded_database(const config::Settings &settings,
                                        const std::string &command) {
    auto db = std::filesystem::path(settings.data_dir) / "metrics.db";
    if (!std::filesystem::exists(db)) {
        throw InputError(command + ": there is no " + db.string() +
                         "; pass --data-dir with the directory the run was recorded in");
    }
    return db;
}

store::RecordedRun find_recorded_run(store::Store &store, const std::filesystem::path &db,
                                     const std::string &command, int64_t run_id) {
    auto found = store::find_run(store, run_id);
    if (!found) {
        throw InputError(command + ": " + db.string() + " has no run " + std::to_string(run_id) +
                         "; `sqlite3 " + db.string() +
                         " 'SELECT id, workflow FROM runs'` lists them");
    }
    return std::move(*found);
}

void check_rerunnable(const config::Settings &settings, const std::string &command,
                      const store::RecordedRun &run) {
    if (settings.find_workflow(run.workflow) == nullptr && run.workflow.rfind("all_", 0) == 0) {
        throw InputError(command + ": run " + std::to_string(run.id) + " is of the combined '" +
                         run.workflow + "' of a simulation, which has no definition of its own; " +
                         command + " a run of one of its parts");
    }
}

std::string failed_status(const store::RecordedRun &run) {
    for (const auto &step : run.steps) {
        if (!step.passed) {
            return step.status;
        }
    }
    return "";
}

std::string outcome_text(bool passed, const std::string &failed_step, const std::string &status) {
    return passed ? "passed" : "failed at step " + failed_step + " (" + status + ")";
}

CellWork rerun_work(store::Store &store, const config::Workflow &workflow,
                    const presets::Preset &preset, const store::RecordedRun &run,
                    const json &inputs, const std::string &strategy) {
    const auto slots = static_cast<size_t>(run.repetition) + 1;
    CellWork work;
    work.workflow = &workflow;
    work.preset = preset;
    work.options = {run.repetition + 1, run.seed, run.flag == "off"};
    work.preset_id = store.preset_id(preset.name, preset.body);
    work.preset_text = preset.body.dump();
    work.input_sets = json(slots, json::object());
    work.input_sets[slots - 1] = inputs;
    work.input_meta = json(slots, json());
    work.input_meta[slots - 1] = run.input_meta;
    work.strategy = strategy;
    work.results.resize(slots);
    return work;
}

}  // namespace sbx::engine
