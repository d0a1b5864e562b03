// The `workflows` table: workflows imported into metrics.db (`workflows import FILE`), so
// commands can name them by id like the seeds' `--run-scenarios 42`. Each definition is
// kept as the YAML of one `workflows:` entry and read back through the settings loader.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/store.hpp"

namespace sbx::store {

struct StoredWorkflow {
    int64_t id = 0;
    std::string name;
    std::string definition;  // one workflow mapping, YAML flow style
    std::string source;      // the file it was imported from
    std::string imported_at;
};

// Inserts or replaces (by name) a workflow; id 0 lets the database choose. Returns the id.
int64_t import_workflow(Store &store, const StoredWorkflow &workflow);
std::vector<StoredWorkflow> stored_workflows(Store &store);
// A workflow the runs in the store name, and a settings file that defines it (the greatest
// of those its sessions recorded).
struct RecordedWorkflow {
    std::string name;
    std::string settings_source;
};
// Every workflow with runs, by name: replay and --recover need the file that defines it.
std::vector<RecordedWorkflow> recorded_workflows(Store &store);
// By numeric id when `name_or_id` is all digits, else by name.
std::optional<StoredWorkflow> find_stored_workflow(Store &store, const std::string &name_or_id);

}  // namespace sbx::store
