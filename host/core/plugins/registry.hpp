// Discovery of plugins in plugin directories, and the table of loaded plugins by id.
// Refused files are remembered with their reason instead of aborting the scan.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "plugins/plugin.hpp"

namespace sbx::plugins {

struct RefusedPlugin {
    std::filesystem::path path;
    std::string reason;
};

class Registry {
  public:
    Registry() = default;
    // Calls each loaded plugin's deinit(). Instances must be gone by then (they are owned
    // by commands, which end before the registry). The libraries stay mapped.
    ~Registry();
    Registry(const Registry &) = delete;
    Registry &operator=(const Registry &) = delete;
    // Loads every *.so below each directory, in directory order, files sorted by path.
    // A second plugin with an id already loaded is refused, naming both files.
    void scan(const std::vector<std::filesystem::path> &directories);

    [[nodiscard]] const std::vector<std::shared_ptr<Plugin>> &plugins() const { return plugins_; }
    [[nodiscard]] const std::vector<RefusedPlugin> &refused() const { return refused_; }
    [[nodiscard]] const std::vector<std::filesystem::path> &directories() const {
        return directories_;
    }
    [[nodiscard]] std::shared_ptr<Plugin> find(const std::string &id) const;
    [[nodiscard]] std::vector<std::string> ids_of_kind(const std::string &kind) const;

    // The plugin `id` of `kind`, or an InputError that starts with `where` and lists the
    // loaded plugins of that kind (and refused files, which are the usual cause).
    [[nodiscard]] std::shared_ptr<Plugin> require(const std::string &id, const std::string &kind,
                                                  const std::string &where) const;

  private:
    void add(const std::filesystem::path &found);

    std::vector<std::filesystem::path> directories_;
    std::vector<std::shared_ptr<Plugin>> plugins_;
    std::vector<RefusedPlugin> refused_;
};

}  // namespace sbx::plugins
