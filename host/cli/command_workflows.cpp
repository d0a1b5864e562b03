// `workflows list [--json]` and `workflows import FILE`: the workflows commands can name,
// from the settings and from metrics.db.
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli_context.hpp"
#include "config/workflow_file.hpp"
#include "reports/workflow_list.hpp"
#include "store/workflow_table.hpp"
#include "util/errors.hpp"

namespace sbx::cli {
namespace {

int import_file(CliContext &context, const std::string &file) {
    const auto definitions = config::read_workflow_file(file);
    store::Store store(std::filesystem::path(context.settings.data_dir) / "metrics.db");
    for (const auto &definition : definitions) {
        const int64_t id = store::import_workflow(
            store, {definition.workflow.id, definition.workflow.name, definition.yaml, file, ""});
        std::printf("imported workflow %s as id %lld\n", definition.workflow.name.c_str(),
                    static_cast<long long>(id));
    }
    return kExitOk;
}

int list(CliContext &context, bool as_json) {
    const auto rows = reports::workflow_list(context.settings);
    if (as_json) {
        std::cout << rows.dump(2) << '\n';
    } else {
        std::cout << reports::workflow_list_table(rows);
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
