// The loaded plugins listed and described, as JSON and as a table (`plugins list|inspect`).
#include "plugins/plugin_listing.hpp"

#include "util/text_format.hpp"

namespace sbx::plugins {
namespace {

using nlohmann::json;

std::string abi_text(const Plugin &plugin) {
    return std::to_string(plugin.abi().major) + "." + std::to_string(plugin.abi().minor);
}

}  // namespace

json plugin_description_json(const Plugin &plugin) {
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

json plugin_list_json(const Registry &registry, const PluginUseOf &use_of) {
    json out{{"plugins", json::array()}, {"refused", json::array()}};
    for (const auto &plugin : registry.plugins()) {
        auto entry = plugin_description_json(*plugin);
        entry.erase("config_schema");
        entry["use"] = use_of(plugin->id());
        out["plugins"].push_back(entry);
    }
    for (const auto &refusal : registry.refused()) {
        out["refused"].push_back({{"path", refusal.path.string()}, {"reason", refusal.reason}});
    }
    return out;
}

std::string plugin_list_table(const Registry &registry, const PluginUseOf &use_of) {
    std::string table = util::format_text("%-18s %-10s %-9s %-4s %-8s %s\n", "ID", "KIND",
                                          "VERSION", "ABI", "USE", "PATH");
    for (const auto &plugin : registry.plugins()) {
        table += util::format_text("%-18s %-10s %-9s %-4s %-8s %s\n", plugin->id().c_str(),
                                   plugin->kind().c_str(), plugin->descriptor().version.c_str(),
                                   abi_text(*plugin).c_str(), use_of(plugin->id()).c_str(),
                                   plugin->path().c_str());
    }
    for (const auto &refusal : registry.refused()) {
        // Load failures already start with the path; duplicate-id refusals do not.
        const std::string path = refusal.path.string();
        if (refusal.reason.rfind(path, 0) == 0) {
            table += "refused: " + refusal.reason + "\n";
        } else {
            table += "refused: " + path + ": " + refusal.reason + "\n";
        }
    }
    return table;
}

std::string no_plugins_found_message(const Registry &registry) {
    std::string searched;
    for (const auto &dir : registry.directories()) {
        searched += (searched.empty() ? "" : ", ") + dir.string();
    }
    return "no plugins found; searched " + (searched.empty() ? "no directory" : searched) +
           ". Name a plugin folder with --plugin-dir DIR or plugin_dirs:, or install "
           "sandbox-runner with its built-in plugins (`cmake --build` before "
           "`cmake --install`)";
}

}  // namespace sbx::plugins
