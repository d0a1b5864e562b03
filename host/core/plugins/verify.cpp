// The order of the pre-flight: file, exports and links (no plugin code runs), then load,
// descriptor, schema and the smoke call.
#include "plugins/verify.hpp"

#include <sbx/plugin.h>

#include "plugins/elf_dynamic.hpp"
#include "plugins/elf_precheck.hpp"
#include "plugins/link_check.hpp"
#include "plugins/plugin.hpp"
#include "plugins/schema_validator.hpp"
#include "plugins/smoke_call.hpp"

namespace sbx::plugins {
namespace {

std::string abi_text(sbx_version abi) {
    return std::to_string(abi.major) + "." + std::to_string(abi.minor);
}

void check_exports(const DynamicLinking &linking, const std::string &prefix, VerifyReport &report) {
    std::vector<std::string> extra;
    for (const auto &name : linking.exports) {
        if (name != SBX_ENTRY_SYMBOL_NAME) {
            extra.push_back(name);
        }
    }
    if (extra.empty()) {
        report.passed.push_back({"exports", SBX_ENTRY_SYMBOL_NAME " only"});
        return;
    }
    report.problems.push_back(
        prefix + "exports " + std::to_string(extra.size()) + " symbol" +
        (extra.size() == 1 ? "" : "s") +
        " besides " SBX_ENTRY_SYMBOL_NAME " (first: " + extra.front() +
        "); compile with -fvisibility=hidden and link with the SDK's version script "
        "sbx_plugin.map (sbx_add_plugin and `pkg-config --libs sandbox-runner-sdk` do both)");
}

void check_schema_and_call(const Plugin &plugin, const std::string &prefix, VerifyReport &report) {
    std::vector<SchemaViolation> violations;
    try {
        violations = validate_against_schema(plugin.descriptor().config_schema,
                                             nlohmann::json::object(), plugin.id());
    } catch (const PluginError &e) {
        report.problems.push_back(prefix + "config_schema is not a usable JSON Schema (" +
                                  e.what() + "); fix the schema text in the descriptor");
        return;
    }
    if (!violations.empty()) {
        report.problems.push_back(
            prefix + "the configuration {} (what a plugin gets when the settings have no plugins." +
            plugin.id() + " section) fails its config_schema at '" + violations.front().pointer +
            "': " + violations.front().message +
            "; give every property a default and require none");
        return;
    }
    report.passed.push_back({"config schema", "a usable JSON Schema; {} is accepted"});
    try {
        const auto smoke = smoke_call(plugin);
        if (smoke.ok) {
            report.passed.push_back({"smoke call", smoke.line});
        } else {
            report.problems.push_back(prefix + smoke.line);
        }
    } catch (const std::exception &e) {
        // create() refused {} (PluginError), or the host could not make a temp dir.
        report.problems.push_back(prefix + "smoke call could not create an instance: " + e.what() +
                                  "; accept the configuration {} in create()");
    }
}

// Another file in the plugin directories with the same id makes the id ambiguous once this
// file is dropped in beside it (exit 2 when a command uses it).
void note_id_taken(const Plugin &plugin, const Registry &registry, VerifyReport &report) {
    std::error_code ec;
    for (const auto &other : registry.plugins()) {
        if (other->id() == plugin.id() &&
            !std::filesystem::equivalent(other->path(), plugin.path(), ec)) {
            report.notes.push_back(
                "id '" + plugin.id() + "' is already provided by " + other->path().string() +
                "; with both in the plugin directories a command that uses '" + plugin.id() +
                "' stops (exit 2) until one is removed or " + "plugin_host.overrides." +
                plugin.id() + ".path names the one to use");
        }
    }
}

}  // namespace

VerifyReport verify_plugin(const std::filesystem::path &path, const IsolationPolicy &policy,
                           const Registry *registry) {
    VerifyReport report;
    const std::string prefix = path.string() + ": ";
    std::size_t link_problems = 0;
    try {
        precheck_plugin_file(path);
        const auto linking = read_dynamic_linking(path);
        check_exports(linking, prefix, report);
        const auto links = check_links(linking);
        for (const auto &problem : links.problems) {
            report.problems.push_back(prefix + problem);
        }
        link_problems = links.problems.size();
        if (link_problems == 0) {
            report.passed.push_back({"undefined symbols", links.undefined_summary});
            report.passed.push_back({"symbol versions", links.versions_summary});
        }
    } catch (const PluginError &e) {
        report.problems.push_back(e.what());
        return report;
    }
    if (link_problems != 0) {
        return report;  // dlopen would fail too, with less to say
    }
    std::shared_ptr<Plugin> plugin;
    try {
        // In a child: a plugin that crashes while loading or in a smoke call is reported
        // with what it was doing, and the checks that passed stay.
        plugin = describe_plugin(path, policy.for_plugin(path.stem().string(), false));
        plugin->set_policy(policy.for_plugin(plugin->id(), false, plugin->kind()));
    } catch (const PluginError &e) {
        report.problems.push_back(e.what());
        return report;
    }
    const auto &d = plugin->descriptor();
    report.summary =
        "ok: " + d.id + " " + d.version + " (" + d.kind + ", ABI " + abi_text(plugin->abi()) + ")";
    report.passed.insert(
        report.passed.begin(),
        {"descriptor", d.id + " " + d.version + ", " + d.kind + ", ABI " + abi_text(plugin->abi()) +
                           " (this host: " + abi_text({SBX_ABI_MAJOR, SBX_ABI_MINOR}) + ")"});
    if (registry != nullptr) {
        note_id_taken(*plugin, *registry, report);
    }
    check_schema_and_call(*plugin, prefix, report);
    return report;
}

}  // namespace sbx::plugins
