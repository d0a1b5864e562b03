// Discovery of plugins in plugin directories, and the table of plugins by id. Lazy: a scan
// only lists the files; a plugin is loaded (or, isolated, described by a child process)
// when a command first asks for its id, so a command loads only what it uses and a broken
// file elsewhere costs it nothing. Refused files are remembered with their reason.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "plugins/disabled_plugins.hpp"
#include "plugins/isolation_policy.hpp"
#include "plugins/plugin.hpp"

namespace sbx::plugins {

struct RefusedPlugin {
    std::filesystem::path path;
    std::string reason;
};

class Registry {
  public:
    // `own_directories`: the host's own plugin directories, whose files are trusted to run
    // in process under IsolationPolicy::Mode::automatic; every other file is isolated.
    Registry(IsolationPolicy policy, std::vector<std::filesystem::path> own_directories);
    // Calls each in-process plugin's deinit(). Instances must be gone by then (they are
    // owned by commands, which end before the registry). The libraries stay mapped.
    ~Registry();
    Registry(const Registry &) = delete;
    Registry &operator=(const Registry &) = delete;
    // Lists every *.so below each directory, in directory order, files sorted by path. No
    // plugin code runs. When two files have the same id, the first one found wins and the
    // other is refused, naming both files.
    void scan(const std::vector<std::filesystem::path> &directories);

    // Every plugin and every refusal: loads (or describes) all files listed.
    [[nodiscard]] std::vector<std::shared_ptr<Plugin>> plugins() const;
    [[nodiscard]] std::vector<RefusedPlugin> refused() const;
    [[nodiscard]] const std::vector<std::filesystem::path> &directories() const {
        return directories_;
    }
    // The plugin `id`, loading files until it is found: first the files named <id>.so and
    // every file outside the host's own directories (an isolated description is cheap and
    // safe), then the rest. nullptr when none has that id. A PluginError (exit 2) naming
    // both files when two provide the id and `plugin_host.overrides.ID.path` does not say
    // which one is used.
    [[nodiscard]] std::shared_ptr<Plugin> find(const std::string &id) const;
    [[nodiscard]] std::vector<std::string> ids_of_kind(const std::string &kind) const;
    // The drop-ins of `kind` that ask to be used without being named (ABI 1.2
    // active_by_default): plugins found outside the host's own directories, in search order.
    // Describes every such file, as find() does anyway; the host's own are not loaded.
    [[nodiscard]] std::vector<std::shared_ptr<Plugin>> active_by_default(
        const std::string &kind) const;

    // The plugin `id` of `kind`, or an InputError that starts with `where` and lists the
    // plugins of that kind (and refused files, which are the usual cause).
    [[nodiscard]] std::shared_ptr<Plugin> require(const std::string &id, const std::string &kind,
                                                  const std::string &where) const;

    // The collectors and predictors this command disabled after a failed call (mutable: the
    // registry lives as long as the command, and every worker shares it).
    [[nodiscard]] DisabledPlugins &disabled() const { return disabled_; }

  private:
    struct Candidate {
        std::filesystem::path path;
        bool trusted = false;
        bool examined = false;
    };
    // Loads or describes candidate `index` (under the lock): adds a plugin or a refusal.
    void examine(size_t index) const;
    [[nodiscard]] std::shared_ptr<Plugin> loaded(const std::string &id) const;
    // `second` has the id of `existing`: keeps the file the settings choose, else the first
    // and remembers the second as shadowed.
    void keep_one(const std::shared_ptr<Plugin> &existing,
                  const std::shared_ptr<Plugin> &second) const;
    // Throws when `id` is provided by several files and the settings do not choose one, or
    // when the file they choose does not provide it.
    void refuse_ambiguous(const std::string &id) const;
    void examine_all() const;

    IsolationPolicy policy_;
    std::vector<std::filesystem::path> own_directories_;
    std::vector<std::filesystem::path> directories_;
    mutable std::recursive_mutex mutex_;
    mutable std::vector<Candidate> candidates_;
    mutable std::vector<std::shared_ptr<Plugin>> plugins_;
    mutable std::vector<RefusedPlugin> refused_;
    mutable std::map<std::string, std::vector<std::filesystem::path>> shadowed_;  // by id
    mutable DisabledPlugins disabled_;
};

}  // namespace sbx::plugins
