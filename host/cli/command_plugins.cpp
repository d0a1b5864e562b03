// `plugins list | inspect ID | verify PATH`.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli_context.hpp"
#include "engine/input_generation.hpp"
#include "install_layout.hpp"
#include "plugin_call_command.hpp"
#include "plugins/plugin_scaffold.hpp"
#include "plugins/registry.hpp"
#include "plugins/verify.hpp"
#include "util/errors.hpp"

namespace sbx::cli {
namespace {

using nlohmann::json;

std::string abi_text(const plugins::Plugin &plugin) {
    return std::to_string(plugin.abi().major) + "." + std::to_string(plugin.abi().minor);
}

// How a command with these settings uses the plugin: "listed" (named by the settings),
// "default" (a drop-in collector or injector active by default), "left out" (such a drop-in
// left out with -id), or "-" (loaded, unused).
class PluginUse {
  public:
    PluginUse(const config::Settings &settings, const plugins::Registry &registry) {
        listed_ = settings.injectors;
        listed_.insert(listed_.end(), settings.metrics.begin(), settings.metrics.end());
        for (const auto &id : engine::strategy_chain(json(settings.stub_strategy))) {
            listed_.push_back(id);
        }
        listed_.insert(listed_.end(),
                       {settings.executor, settings.vm_executor, settings.predictor});
        listed_.insert(listed_.end(), settings.predictors.begin(), settings.predictors.end());
        for (const auto &[id, where] : settings.injectors_left_out) {
            left_out_.push_back(id);
        }
        for (const auto &[id, where] : settings.metrics_left_out) {
            left_out_.push_back(id);
        }
        for (const char *kind : {SBX_KIND_INJECTOR, SBX_KIND_METRICS}) {
            for (const auto &plugin : registry.active_by_default(kind)) {
                by_default_.push_back(plugin->id());
            }
        }
    }

    [[nodiscard]] std::string of(const std::string &id) const {
        const auto has = [&](const std::vector<std::string> &ids) {
            return std::find(ids.begin(), ids.end(), id) != ids.end();
        };
        if (has(listed_)) {
            return "listed";
        }
        if (has(by_default_)) {
            return has(left_out_) ? "left out" : "default";
        }
        return "-";
    }

  private:
    std::vector<std::string> listed_;
    std::vector<std::string> left_out_;
    std::vector<std::string> by_default_;
};

json describe(const plugins::Plugin &plugin) {
    const auto &d = plugin.descriptor();
    return {{"id", d.id},
            {"name", d.name},
            {"version", d.version},
            {"kind", d.kind},
            {"abi", abi_text(plugin)},
            {"path", plugin.path().string()},
            {"isolation", plugin.isolated() ? "process" : "in_process"},
            {"description", d.description},
            {"vendor", d.vendor},
            {"url", d.url},
            {"license", d.license},
            {"active_by_default", d.active_by_default},
            {"config_schema", d.config_schema}};
}

// Nothing found must not be a silent empty table, which makes a partial install or a
// mistyped plugin directory look like a working host: exit 2, naming where it looked.
void say_none_found(const plugins::Registry &registry) {
    std::string searched;
    for (const auto &dir : registry.directories()) {
        searched += (searched.empty() ? "" : ", ") + dir.string();
    }
    std::cerr << "sandbox-runner: plugins list: no plugins found; searched "
              << (searched.empty() ? "no directory" : searched)
              << ". Name a plugin folder with --plugin-dir DIR or plugin_dirs:, or install "
                 "sandbox-runner with its built-in plugins (`cmake --build` before "
                 "`cmake --install`)\n";
}

int list(CliContext &context, bool as_json) {
    auto &registry = context.registry();
    const PluginUse use(context.settings, registry);
    const bool none_found = registry.plugins().empty();
    if (none_found) {
        say_none_found(registry);
    }
    if (as_json) {
        json out{{"plugins", json::array()}, {"refused", json::array()}};
        for (const auto &plugin : registry.plugins()) {
            auto entry = describe(*plugin);
            entry.erase("config_schema");
            entry["use"] = use.of(plugin->id());
            out["plugins"].push_back(entry);
        }
        for (const auto &refusal : registry.refused()) {
            out["refused"].push_back({{"path", refusal.path.string()}, {"reason", refusal.reason}});
        }
        std::cout << out.dump(2) << '\n';
        return none_found ? kExitBadInput : kExitOk;
    }
    std::printf("%-18s %-10s %-9s %-4s %-8s %s\n", "ID", "KIND", "VERSION", "ABI", "USE", "PATH");
    for (const auto &plugin : registry.plugins()) {
        std::printf("%-18s %-10s %-9s %-4s %-8s %s\n", plugin->id().c_str(), plugin->kind().c_str(),
                    plugin->descriptor().version.c_str(), abi_text(*plugin).c_str(),
                    use.of(plugin->id()).c_str(), plugin->path().c_str());
    }
    for (const auto &refusal : registry.refused()) {
        // Load failures already start with the path; duplicate-id refusals do not.
        const std::string path = refusal.path.string();
        if (refusal.reason.rfind(path, 0) == 0) {
            std::printf("refused: %s\n", refusal.reason.c_str());
        } else {
            std::printf("refused: %s: %s\n", path.c_str(), refusal.reason.c_str());
        }
    }
    return none_found ? kExitBadInput : kExitOk;
}

int inspect(CliContext &context, const std::string &id) {
    const auto plugin = context.registry().find(id);
    if (!plugin) {
        throw InputError("plugins inspect: no loaded plugin has the id '" + id +
                         "'; `sandbox-runner plugins list` shows the ids");
    }
    std::cout << describe(*plugin).dump(2) << '\n';
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
