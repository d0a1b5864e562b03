// The workflows a command can name and where each is defined: the settings first, then what
// metrics.db holds (imported definitions, and names only runs remember).
#include "reports/workflow_list.hpp"

#include <filesystem>
#include <set>

#include "store/workflow_table.hpp"
#include "util/text_format.hpp"

namespace sbx::reports {
namespace {

using nlohmann::json;

// The imported workflows, then the workflows with runs that neither the settings nor an
// import define.
void add_stored_workflows(const config::Settings &settings, const std::filesystem::path &database,
                          json &rows) {
    store::Store store(database);
    std::set<std::string> known;
    for (const auto &workflow : settings.workflows) {
        known.insert(workflow.name);
    }
    for (const auto &stored : store::stored_workflows(store)) {
        // A name the settings define is shadowed: commands use the settings' one.
        const bool shadowed = settings.find_workflow(stored.name) != nullptr;
        known.insert(stored.name);
        rows.push_back({{"id", stored.id},
                        {"name", stored.name},
                        {"source", database.string() + " (imported from " + stored.source + ")"},
                        {"shadowed", shadowed}});
    }
    // Workflows the data dir has runs of, defined in another settings file: named with
    // that file, which replay and --recover need (--config).
    for (const auto &recorded : store::recorded_workflows(store)) {
        if (known.count(recorded.name) == 0) {
            rows.push_back({{"id", json()},
                            {"name", recorded.name},
                            {"source", "runs in " + database.string() + ", defined in " +
                                           recorded.settings_source + " (give it with --config)"},
                            {"recorded_only", true}});
        }
    }
}

}  // namespace

json workflow_list(const config::Settings &settings) {
    json rows = json::array();
    for (const auto &workflow : settings.workflows) {
        rows.push_back({{"id", workflow.id == 0 ? json() : json(workflow.id)},
                        {"name", workflow.name},
                        {"steps", workflow.steps.size()},
                        {"source", settings.source}});
    }
    const auto database = std::filesystem::path(settings.data_dir) / "metrics.db";
    if (std::filesystem::exists(database)) {
        add_stored_workflows(settings, database, rows);
    }
    return rows;
}

std::string workflow_list_table(const json &rows) {
    std::string table = util::format_text("%-6s %-24s %s\n", "id", "name", "source");
    for (const auto &row : rows) {
        const std::string id = row["id"].is_null() ? "-" : std::to_string(row["id"].get<int64_t>());
        table += util::format_text(
            "%-6s %-24s %s%s\n", id.c_str(), row["name"].get<std::string>().c_str(),
            row["source"].get<std::string>().c_str(),
            row.value("shadowed", false) ? " (shadowed by the settings)" : "");
    }
    return table;
}

}  // namespace sbx::reports
