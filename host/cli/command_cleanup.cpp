// `purge-stale` (and its alias `cleanup`) removes what crashed hosts left behind;
// `check-resources` lists it and exits 1 when anything is left.
#include <iostream>
#include <map>

#include "cli_context.hpp"
#include "engine/stale_resources.hpp"
#include "util/errors.hpp"

namespace sbx::cli {

int run_cleanup_command(CliContext &context, const std::string &command,
                        const std::vector<std::string> &args) {
    bool as_json = false;
    for (const auto &arg : args) {
        if (arg != "--json") {
            throw InputError(command + ": unknown argument '" + arg + "'; use `sandbox-runner " +
                             command + " [--json]`");
        }
        as_json = true;
    }
    const bool dry_run = command == "check-resources";
    const auto state_dir = std::filesystem::path(context.settings.data_dir) / "state";
    const auto report =
        engine::sweep_stale(context.registry(), context.settings, state_dir, dry_run);

    std::map<std::string, int> by_kind;
    for (const auto &item : report.items) {
        ++by_kind[item.kind];
    }
    if (as_json) {
        nlohmann::json items = nlohmann::json::array();
        for (const auto &item : report.items) {
            items.push_back({{"kind", item.kind}, {"what", item.what}});
        }
        std::cout << nlohmann::json{{dry_run ? "left" : "removed", items},
                                    {"by_kind", by_kind},
                                    {"errors", report.errors}}
                         .dump(2)
                  << '\n';
    } else {
        for (const auto &item : report.items) {
            std::printf("%s %s: %s\n", dry_run ? "left" : "removed", item.kind.c_str(),
                        item.what.c_str());
        }
        for (const auto &error : report.errors) {
            std::fprintf(stderr, "sandbox-runner: %s: sweep failed: %s\n", command.c_str(),
                         error.c_str());
        }
        if (report.items.empty()) {
            std::printf("%s\n", dry_run ? "nothing left behind" : "nothing to remove");
        } else {
            std::printf("%s:", dry_run ? "left behind" : "removed");
            for (const auto &[kind, count] : by_kind) {
                std::printf(" %s %d", kind.c_str(), count);
            }
            std::printf("\n");
        }
    }
    if (!report.errors.empty()) {
        return kExitEnvironment;
    }
    return dry_run && !report.items.empty() ? kExitGateFailed : kExitOk;
}

}  // namespace sbx::cli
