#include "plugins/disabled_plugins.hpp"

#include <algorithm>

namespace sbx::plugins {

bool DisabledPlugins::is_disabled(const std::string &id) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return std::find(ids_.begin(), ids_.end(), id) != ids_.end();
}

bool DisabledPlugins::disable(const std::string &id) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (std::find(ids_.begin(), ids_.end(), id) != ids_.end()) {
        return false;
    }
    ids_.push_back(id);
    return true;
}

}  // namespace sbx::plugins
