// Plugin discovery: list the plugin directories, load (or describe) on demand, remember
// what was refused.
#include "plugins/registry.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace sbx::plugins {
namespace {

bool is_within(const std::filesystem::path &directory,
               const std::vector<std::filesystem::path> &candidates) {
    std::error_code ec;
    return std::any_of(candidates.begin(), candidates.end(), [&](const auto &own) {
        return std::filesystem::equivalent(directory, own, ec);
    });
}

std::vector<std::filesystem::path> plugin_files(const std::filesystem::path &directory) {
    std::vector<std::filesystem::path> files;
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(
             directory, std::filesystem::directory_options::skip_permission_denied, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
        std::error_code entry_ec;  // one unreadable entry must not end the whole walk
        if (it->path().extension() == ".so" && !it->is_directory(entry_ec)) {
            files.push_back(it->path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

void call_deinit(const Plugin &plugin) {
    if (const auto *entry = plugin.entry(); entry != nullptr && entry->deinit != nullptr) {
        entry->deinit();
    }
}

}  // namespace

Registry::Registry(IsolationPolicy policy, std::vector<std::filesystem::path> own_directories)
    : policy_(std::move(policy)), own_directories_(std::move(own_directories)) {}

Registry::~Registry() {
    for (const auto &plugin : plugins_) {
        call_deinit(*plugin);
    }
}

void Registry::scan(const std::vector<std::filesystem::path> &directories) {
    const std::lock_guard<std::recursive_mutex> lock(mutex_);
    for (const auto &directory : directories) {
        directories_.push_back(directory);
        std::error_code ec;
        if (!std::filesystem::is_directory(directory, ec)) {
            spdlog::debug("plugin directory {} does not exist; skipped", directory.string());
            continue;
        }
        const bool trusted = is_within(directory, own_directories_);
        for (const auto &found : plugin_files(directory)) {
            // One spelling of the path everywhere (messages, refusals, `plugins list`).
            const auto canonical = std::filesystem::weakly_canonical(found, ec);
            const std::filesystem::path &path = ec ? found : canonical;
            const bool seen = std::any_of(
                candidates_.begin(), candidates_.end(),
                [&](const Candidate &c) { return std::filesystem::equivalent(c.path, path, ec); });
            if (!seen) {  // the same file reached through two directories counts once
                candidates_.push_back({path, trusted, false});
            }
        }
    }
}

void Registry::examine(size_t index) const {
    Candidate &candidate = candidates_[index];
    if (candidate.examined) {
        return;
    }
    candidate.examined = true;
    const auto &path = candidate.path;
    try {
        // The file name is the usual id; the policy of that id decides how it is opened.
        // An untrusted file is always described by a child first: its code never runs
        // here unless the settings ask for it by id.
        std::shared_ptr<Plugin> plugin;
        const auto by_name = policy_.for_plugin(path.stem().string(), candidate.trusted);
        if (candidate.trusted && by_name.isolation == Isolation::in_process) {
            plugin = load_plugin(path);
        } else {
            plugin = describe_plugin(path, by_name);
        }
        const auto policy = policy_.for_plugin(plugin->id(), candidate.trusted, plugin->kind());
        if (plugin->isolated() && policy.isolation == Isolation::in_process) {
            plugin = load_plugin(path);  // asked for by id; it loaded safely in a child
        } else if (!plugin->isolated() && policy.isolation == Isolation::process) {
            call_deinit(*plugin);
            plugin = describe_plugin(path, policy);
        }
        plugin->set_policy(policy);
        if (const auto existing = loaded(plugin->id())) {
            keep_one(existing, plugin);
            return;
        }
        spdlog::debug("loaded plugin {} {} ({}, {}) from {}", plugin->id(),
                      plugin->descriptor().version, plugin->kind(),
                      plugin->isolated() ? "isolated" : "in process", path.string());
        plugins_.push_back(std::move(plugin));
    } catch (const PluginError &e) {
        refused_.push_back({path, e.what()});
        spdlog::warn("refused plugin {}", e.what());
    }
}

void Registry::keep_one(const std::shared_ptr<Plugin> &existing,
                        const std::shared_ptr<Plugin> &second) const {
    const std::string &id = second->id();
    const auto chosen = policy_.path_of.find(id);
    std::error_code ec;
    if (chosen != policy_.path_of.end()) {
        // The settings say which file provides the id: the other is set aside quietly.
        const bool second_wins = std::filesystem::equivalent(chosen->second, second->path(), ec);
        const auto &kept = second_wins ? second : existing;
        const auto &dropped = second_wins ? existing : second;
        refused_.push_back({dropped->path(), "plugin id '" + id + "' is provided by " +
                                                 kept->path().string() +
                                                 " (plugin_host.overrides." + id + ".path)"});
        call_deinit(*dropped);  // no instance of it exists: ids are resolved before use
        spdlog::debug("{}", refused_.back().reason);
        if (second_wins) {
            std::replace(plugins_.begin(), plugins_.end(), existing, second);
        }
        return;
    }
    refused_.push_back({second->path(), "plugin id '" + id + "' is already provided by " +
                                            existing->path().string() +
                                            "; remove one of them, or choose one with "
                                            "plugin_host.overrides." +
                                            id + ".path"});
    shadowed_[id].push_back(second->path());
    call_deinit(*second);  // its init() ran here; it gets its deinit() too
    spdlog::warn("refused plugin {}: {}", second->path().string(), refused_.back().reason);
}

void Registry::refuse_ambiguous(const std::string &id) const {
    const auto chosen = policy_.path_of.find(id);
    const auto plugin = loaded(id);
    std::error_code ec;
    if (chosen != policy_.path_of.end() &&
        (!plugin || !std::filesystem::equivalent(chosen->second, plugin->path(), ec))) {
        std::string providers = plugin ? plugin->path().string() : std::string("no file");
        throw PluginError("plugin_host.overrides." + id + ".path names " + chosen->second.string() +
                          ", which provides no plugin '" + id + "' (provided by: " + providers +
                          "); name one of those files, or remove the path");
    }
    const auto shadowed = shadowed_.find(id);
    if (shadowed == shadowed_.end() || !plugin) {
        return;
    }
    std::string others;
    for (const auto &path : shadowed->second) {
        others += (others.empty() ? "" : ", ") + path.string();
    }
    // Rationale: the first file found winning in silence once replaced a built-in collector
    // with a drop-in that measured nothing, and the report showed zeros as measured.
    throw PluginError("plugin id '" + id +
                      "' is provided by two files: " + plugin->path().string() + " and " + others +
                      "; remove one, or say which one is used: plugin_host: {overrides: {" + id +
                      ": {path: " + plugin->path().string() + "}}}");
}

std::shared_ptr<Plugin> Registry::loaded(const std::string &id) const {
    for (const auto &plugin : plugins_) {
        if (plugin->id() == id) {
            return plugin;
        }
    }
    return nullptr;
}

void Registry::examine_all() const {
    for (size_t i = 0; i < candidates_.size(); ++i) {
        examine(i);
    }
}

std::vector<std::shared_ptr<Plugin>> Registry::plugins() const {
    const std::lock_guard<std::recursive_mutex> lock(mutex_);
    examine_all();
    return plugins_;
}

std::vector<RefusedPlugin> Registry::refused() const {
    const std::lock_guard<std::recursive_mutex> lock(mutex_);
    examine_all();
    return refused_;
}

std::shared_ptr<Plugin> Registry::find(const std::string &id) const {
    const std::lock_guard<std::recursive_mutex> lock(mutex_);
    // In directory order, so that the first file with the id wins as it would in a full
    // scan: the likely files first (every one of them, so that a second file with the id
    // is seen), then the others.
    for (size_t i = 0; i < candidates_.size(); ++i) {
        const auto &candidate = candidates_[i];
        if (!candidate.trusted || candidate.path.stem() == id) {
            examine(i);
        }
    }
    if (!loaded(id)) {
        examine_all();
    }
    refuse_ambiguous(id);
    return loaded(id);
}

std::vector<std::string> Registry::ids_of_kind(const std::string &kind) const {
    std::vector<std::string> ids;
    for (const auto &plugin : plugins()) {
        if (plugin->kind() == kind) {
            ids.push_back(plugin->id());
        }
    }
    return ids;
}

std::vector<std::shared_ptr<Plugin>> Registry::active_by_default(const std::string &kind) const {
    const std::lock_guard<std::recursive_mutex> lock(mutex_);
    std::vector<std::shared_ptr<Plugin>> wanted;
    for (size_t i = 0; i < candidates_.size(); ++i) {
        if (candidates_[i].trusted) {
            continue;
        }
        examine(i);
        for (const auto &plugin : plugins_) {
            // A file refused, or whose id another file provides, matches no plugin here.
            if (plugin->path() == candidates_[i].path && plugin->kind() == kind &&
                plugin->descriptor().active_by_default) {
                wanted.push_back(plugin);
            }
        }
    }
    return wanted;
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
    for (const auto &refusal : refused()) {
        message += "\n  refused: " + refusal.reason;
    }
    throw InputError(message);
}

}  // namespace sbx::plugins
