// `workflows list [--json]` and `workflows import FILE`: the workflows commands can name,
// from the settings and from metrics.db.
#include <boost/program_options.hpp>
#include <iostream>
#include <set>

#include "cli_context.hpp"
#include "config/workflow_file.hpp"
#include "store/sqlite_handle.hpp"
#include "store/workflow_table.hpp"
#include "util/errors.hpp"

namespace sbx::cli {
namespace {

using nlohmann::json;

std::filesystem::path database_of(const config::Settings &settings) {
    return std::filesystem::path(settings.data_dir) / "metrics.db";
}

int import_file(CliContext &context, const std::string &file) {
    const auto definitions = config::read_workflow_file(file);
    store::Store store(database_of(context.settings));
    for (const auto &definition : definitions) {
        const int64_t id = store::import_workflow(
            store, {definition.workflow.id, definition.workflow.name, definition.yaml, file, ""});
        std::printf("imported workflow %s as id %lld\n", definition.workflow.name.c_str(),
                    static_cast<long long>(id));
    }
    return kExitOk;
}

int list(CliContext &context, bool as_json) {
    const auto &settings = context.settings;
    json rows = json::array();
    for (const auto &workflow : settings.workflows) {
        rows.push_back({{"id", workflow.id == 0 ? json() : json(workflow.id)},
                        {"name", workflow.name},
                        {"steps", workflow.steps.size()},
                        {"source", settings.source}});
    }
    if (std::filesystem::exists(database_of(settings))) {
        store::Store store(database_of(settings));
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
                            {"source", database_of(settings).string() + " (imported from " +
                                           stored.source + ")"},
                            {"shadowed", shadowed}});
        }
        // Workflows the data dir has runs of, defined in another settings file: named with
        // that file, which replay and --recover need (--config).
        store::Statement recorded(store.connection().get(),
                                  "SELECT runs.workflow, MAX(sessions.settings_source) FROM runs "
                                  "JOIN sessions ON sessions.id = runs.session_id GROUP BY "
                                  "runs.workflow ORDER BY runs.workflow");
        while (recorded.step()) {
            const std::string name = recorded.column_text(0);
            if (known.count(name) == 0) {
                rows.push_back(
                    {{"id", json()},
                     {"name", name},
                     {"source", "runs in " + database_of(settings).string() + ", defined in " +
                                    recorded.column_text(1) + " (give it with --config)"},
                     {"recorded_only", true}});
            }
        }
    }
    if (as_json) {
        std::cout << rows.dump(2) << '\n';
        return kExitOk;
    }
    std::printf("%-6s %-24s %s\n", "id", "name", "source");
    for (const auto &row : rows) {
        const std::string id = row["id"].is_null() ? "-" : std::to_string(row["id"].get<int64_t>());
        std::printf("%-6s %-24s %s%s\n", id.c_str(), row["name"].get<std::string>().c_str(),
                    row["source"].get<std::string>().c_str(),
                    row.value("shadowed", false) ? " (shadowed by the settings)" : "");
    }
    return kExitOk;
}

}  // namespace

int run_workflows_command(CliContext &context, const std::vector<std::string> &args) {
    const std::string usage =
        "use `sandbox-runner workflows list [--json]` or `sandbox-runner workflows import FILE`";
    if (args.empty()) {
        throw InputError("workflows: missing subcommand; " + usage);
    }
    if (args[0] == "list" && (args.size() == 1 || (args.size() == 2 && args[1] == "--json"))) {
        return list(context, args.size() == 2);
    }
    if (args[0] == "import") {
        if (args.size() != 2 || args[1].empty() || args[1][0] == '-') {
            throw InputError(
                "workflows import: give exactly one YAML file with a `workflows:` "
                "list; " +
                usage);
        }
        return import_file(context, args[1]);
    }
    throw InputError("workflows: '" + args[0] + (args.size() > 1 ? " ..." : "") +
                     "' is not understood; " + usage);
}

}  // namespace sbx::cli
