// `workflows list`: the workflows commands can name, from the settings and from
// metrics.db (imported ones, and those only runs recorded), as JSON rows or a table.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "config/settings.hpp"

namespace sbx::reports {

// [{id (null for a settings' workflow without one), name, steps, source}] for the settings'
// workflows, then, when `<data_dir>/metrics.db` exists, [{id, name, source, shadowed}] for
// the imported ones (shadowed: the settings define the name too, and win) and [{id: null,
// name, source, recorded_only: true}] for workflows with runs defined in another file.
nlohmann::json workflow_list(const config::Settings &settings);

// "id name source" columns, "-" for no id, "(shadowed by the settings)" after a shadowed one.
std::string workflow_list_table(const nlohmann::json &rows);

}  // namespace sbx::reports
