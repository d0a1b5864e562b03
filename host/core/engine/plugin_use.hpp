// How a command with these settings uses each loaded plugin: the USE column of
// `plugins list`, which tells a plugin the settings name from a drop-in used by default.
#pragma once

#include <string>
#include <vector>

#include "config/settings.hpp"
#include "plugins/registry.hpp"

namespace sbx::engine {

class PluginUse {
  public:
    PluginUse(const config::Settings &settings, const plugins::Registry &registry);

    // "listed" (named by the settings), "default" (a drop-in collector or injector active by
    // default), "left out" (such a drop-in left out with -id), or "-" (loaded, unused).
    [[nodiscard]] std::string of(const std::string &id) const;

  private:
    std::vector<std::string> listed_;
    std::vector<std::string> left_out_;
    std::vector<std::string> by_default_;
};

}  // namespace sbx::engine
