// Workflow lookup across the settings and the database.
#include "engine/workflow_choice.hpp"

#include <filesystem>

#include "config/workflow_file.hpp"
#include "engine/recorded_run.hpp"
#include "store/workflow_table.hpp"
#include "util/errors.hpp"

namespace sbx::engine {
namespace {

std::filesystem::path database_of(const config::Settings &settings) {
    return std::filesystem::path(settings.data_dir) / "metrics.db";
}

// Adds the stored workflows the settings do not already define (the settings win on a
// name clash: the file the user is editing is what they mean).
void add_stored_workflows(config::Settings &settings) {
    const auto db = database_of(settings);
    if (!std::filesystem::exists(db)) {
        return;
    }
    store::Store store(db);
    std::vector<std::string> yamls;
    std::vector<int64_t> ids;
    for (const auto &stored : store::stored_workflows(store)) {
        if (settings.find_workflow(stored.name) == nullptr) {
            yamls.push_back(stored.definition);
            ids.push_back(stored.id);
        }
    }
    if (yamls.empty()) {
        return;
    }
    auto loaded = config::workflows_from_definitions(yamls, db.string() + " (workflows table)");
    for (size_t i = 0; i < loaded.size(); ++i) {
        loaded[i].id = ids[i];
        settings.workflows.push_back(std::move(loaded[i]));
    }
}

}  // namespace

const config::Workflow &choose_workflow(config::Settings &settings, const std::string &command,
                                        const std::string &name_or_id) {
    if (name_or_id.empty()) {
        if (settings.workflows.size() == 1) {
            return settings.workflows.front();
        }
        throw InputError(command + ": name a workflow; " + settings.source + " defines " +
                         std::to_string(settings.workflows.size()) + " workflows");
    }
    if (const auto *workflow = settings.find_workflow(name_or_id)) {
        return *workflow;
    }
    add_stored_workflows(settings);
    if (const auto *workflow = settings.find_workflow(name_or_id)) {
        return *workflow;
    }
    std::string names;
    for (const auto &w : settings.workflows) {
        names += (names.empty() ? "" : ", ") + w.name +
                 (w.id != 0 ? " (id " + std::to_string(w.id) + ")" : "");
    }
    throw InputError(command + ": workflow '" + name_or_id + "' is not defined in " +
                     settings.source + " nor imported into " + database_of(settings).string() +
                     "; defined workflows: " + (names.empty() ? std::string("none") : names) +
                     " (`sandbox-runner workflows import FILE` adds more)");
}

const config::Workflow &recorded_workflow(config::Settings &settings, const std::string &command,
                                          const store::RecordedRun &run) {
    check_rerunnable(settings, command, run);
    return choose_workflow(settings, command, run.workflow);
}

}  // namespace sbx::engine
