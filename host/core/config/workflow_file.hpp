// Workflows as standalone definitions: read from a YAML file for `workflows import`, and
// rebuilt from the text kept in metrics.db. Both go through the settings loader, so an
// imported workflow obeys exactly the rules of one written in sandbox_settings.yaml.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "config/settings.hpp"

namespace sbx::config {

struct WorkflowDefinition {
    Workflow workflow;
    std::string yaml;  // the workflow's mapping in YAML flow style, one line
};

// Every workflow of `path` (a file with a `workflows:` list, e.g. a settings file), fully
// checked; InputError with file:line:column otherwise.
std::vector<WorkflowDefinition> read_workflow_file(const std::filesystem::path &path);

// Rebuilds workflows from their definitions (all at once, so `baseline:` can name another
// of them). `source` names them in errors.
std::vector<Workflow> workflows_from_definitions(const std::vector<std::string> &yamls,
                                                 const std::string &source);

}  // namespace sbx::config
