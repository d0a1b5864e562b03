// Plugin discovery: walk the plugin directories, load what loads, remember what not.
#include "plugins/registry.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace sbx::plugins {

Registry::~Registry() {
    for (const auto &plugin : plugins_) {
        if (plugin->entry().deinit != nullptr) {
            plugin->entry().deinit();
        }
    }
}

void Registry::scan(const std::vector<std::filesystem::path> &directories) {
    for (const auto &directory : directories) {
        directories_.push_back(directory);
        std::error_code ec;
        if (!std::filesystem::is_directory(directory, ec)) {
            spdlog::debug("plugin directory {} does not exist; skipped", directory.string());
            continue;
        }
        std::vector<std::filesystem::path> files;
        for (auto it = std::filesystem::recursive_directory_iterator(
                 directory, std::filesystem::directory_options::skip_permission_denied, ec);
             !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
            std::error_code entry_ec;  // one unreadable entry must not end the whole walk
            if (it->path().extension() == ".so" && !it->is_directory(entry_ec)) {
                files.push_back(it->path());
            }
        }
        std::sort(files.begin(), files.end());
        for (const auto &file : files) {
            add(file);
        }
    }
}

void Registry::add(const std::filesystem::path &found) {
    std::error_code ec;
    // One spelling of the path everywhere (messages, refusals, `plugins list`).
    const auto canonical = std::filesystem::weakly_canonical(found, ec);
    const std::filesystem::path &path = ec ? found : canonical;
    for (const auto &loaded : plugins_) {
        if (std::filesystem::equivalent(loaded->path(), path, ec)) {
            return;  // the same file reached through two directories
        }
    }
    try {
        auto plugin = load_plugin(path);
        if (const auto existing = find(plugin->id())) {
            refused_.push_back({path, "plugin id '" + plugin->id() + "' is already provided by " +
                                          existing->path().string() + "; rename one of them"});
            // Its init() ran; it gets its deinit() too (no instance of it was made).
            if (plugin->entry().deinit != nullptr) {
                plugin->entry().deinit();
            }
            spdlog::warn("refused plugin {}: {}", path.string(), refused_.back().reason);
            return;
        }
        spdlog::debug("loaded plugin {} {} ({}) from {}", plugin->id(),
                      plugin->descriptor().version, plugin->kind(), path.string());
        plugins_.push_back(std::move(plugin));
    } catch (const PluginError &e) {
        refused_.push_back({path, e.what()});
        spdlog::warn("refused plugin {}", e.what());
    }
}

std::shared_ptr<Plugin> Registry::find(const std::string &id) const {
    for (const auto &plugin : plugins_) {
        if (plugin->id() == id) {
            return plugin;
        }
    }
    return nullptr;
}

std::vector<std::string> Registry::ids_of_kind(const std::string &kind) const {
    std::vector<std::string> ids;
    for (const auto &plugin : plugins_) {
        if (plugin->kind() == kind) {
            ids.push_back(plugin->id());
        }
    }
    return ids;
}

std::shared_ptr<Plugin> Registry::require(const std::string &id, const std::string &kind,
                                          const std::string &where) const {
    auto plugin = find(id);
    if (plugin && plugin->kind() == kind) {
        return plugin;
    }
    std::string message = where + ": " + kind + " '" + id + "' is not a loaded plugin";
    if (plugin) {
        message += " (it is a " + plugin->kind() + ")";
    }
    const auto ids = ids_of_kind(kind);
    message += "; loaded " + kind + " plugins: ";
    for (size_t i = 0; i < ids.size(); ++i) {
        message += (i ? ", " : "") + ids[i];
    }
    if (ids.empty()) {
        message += "none";
    }
    std::string searched;
    for (const auto &dir : directories_) {
        searched += (searched.empty() ? "" : ", ") + dir.string();
    }
    message += " (searched: " + (searched.empty() ? std::string("no directory") : searched) +
               "; add a directory with --plugin-dir or SANDBOX_PLUGIN_DIRS)";
    for (const auto &refusal : refused_) {
        message += "\n  refused: " + refusal.reason;
    }
    throw InputError(message);
}

}  // namespace sbx::plugins
