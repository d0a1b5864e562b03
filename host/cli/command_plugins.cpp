// `plugins list | inspect ID | verify PATH`.
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli_context.hpp"
#include "engine/plugin_use.hpp"
#include "install_layout.hpp"
#include "plugin_call_command.hpp"
#include "plugins/plugin_listing.hpp"
#include "plugins/plugin_scaffold.hpp"
#include "plugins/registry.hpp"
#include "plugins/verify.hpp"
#include "util/errors.hpp"

namespace sbx::cli {
namespace {

int list(CliContext &context, bool as_json) {
    auto &registry = context.registry();
    const engine::PluginUse use(context.settings, registry);
    const auto use_of = [&](const std::string &id) { return use.of(id); };
    const bool none_found = registry.plugins().empty();
    if (none_found) {
        std::cerr << "sandbox-runner: plugins list: " << plugins::no_plugins_found_message(registry)
                  << '\n';
    }
    if (as_json) {
        std::cout << plugins::plugin_list_json(registry, use_of).dump(2) << '\n';
    } else {
        std::cout << plugins::plugin_list_table(registry, use_of);
    }
    return none_found ? kExitBadInput : kExitOk;
}

int inspect(CliContext &context, const std::string &id) {
    const auto plugin = context.registry().find(id);
    if (!plugin) {
        throw InputError("plugins inspect: no loaded plugin has the id '" + id +
                         "'; `sandbox-runner plugins list` shows the ids");
    }
    std::cout << plugins::plugin_description_json(*plugin).dump(2) << '\n';
    return kExitOk;
}

// The checklist on stdout; each problem on stderr as one line naming the file and what to
// change. Exit 2 when there is any problem.
int verify(CliContext &context, const std::string &path) {
    const auto report =
        plugins::verify_plugin(path, context.settings.plugin_host.policy, &context.registry());
    if (report.problems.empty()) {
        std::cout << report.summary << '\n';
    }
    for (const auto &check : report.passed) {
        std::printf("  ok  %-17s %s\n", check.name.c_str(), check.detail.c_str());
    }
    std::fflush(stdout);
    for (const auto &note : report.notes) {
        std::cerr << "note: " << note << '\n';
    }
    for (const auto &problem : report.problems) {
        std::cerr << problem << '\n';
    }
    return report.problems.empty() ? kExitOk : kExitBadInput;
}

// `plugins new KIND NAME [DIR]`: 0 once the project is written.
int new_plugin(const std::vector<std::string> &args) {
    if (args.size() < 2 || args.size() > 3) {
        throw InputError(
            "plugins new: needs KIND and NAME; write `plugins new KIND NAME [DIR]` (KIND: "
            "executor, injector, stub, metrics or predictor; NAME: the plugin id, [a-z0-9_]+; "
            "DIR: a folder that does not exist yet, default ./NAME)");
    }
    plugins::ScaffoldRequest request;
    request.kind = args[0];
    request.name = args[1];
    request.folder =
        args.size() == 3 ? std::filesystem::path(args[2]) : std::filesystem::path(args[1]);
    // The installed pages when this host is installed, else the sources' docs/.
    const auto self = executable_path("sandbox-runner");
    request.author_guide = doc_reference(self, "plugin-authors.md");
    request.abi_doc = doc_reference(self, "abi.md");
    plugins::write_plugin_scaffold(request);
    const std::string dir = request.folder.string();
    std::printf("wrote %s plugin '%s' to %s (CMakeLists.txt, %s.cpp, README.md)\n",
                request.kind.c_str(), request.name.c_str(), dir.c_str(), request.name.c_str());
    std::printf("next: cmake -S %s -B %s/build && cmake --build %s/build\n", dir.c_str(),
                dir.c_str(), dir.c_str());
    return 0;
}

}  // namespace

int run_plugins_command(CliContext &context, const std::vector<std::string> &args) {
    const std::string usage =
        "; write `plugins list [--json]`, `plugins inspect ID`, `plugins verify PATH`, "
        "`plugins call PATH --request FILE` or `plugins new KIND NAME [DIR]`";
    if (args.empty()) {
        throw InputError("plugins: missing subcommand" + usage);
    }
    const std::string &sub = args[0];
    if (sub == "list" && args.size() == 1) {
        return list(context, false);
    }
    if (sub == "list" && args.size() == 2 && args[1] == "--json") {
        return list(context, true);
    }
    if (sub == "inspect" && args.size() == 2) {
        return inspect(context, args[1]);
    }
    if (sub == "verify" && args.size() == 2) {
        return verify(context, args[1]);
    }
    if (sub == "call") {
        return call_plugin({args.begin() + 1, args.end()});
    }
    if (sub == "new") {
        return new_plugin({args.begin() + 1, args.end()});
    }
    throw InputError("plugins: unexpected arguments" + usage);
}

}  // namespace sbx::cli
