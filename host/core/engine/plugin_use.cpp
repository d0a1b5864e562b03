// Which plugins the settings name, which drop-ins are active by default and which of those
// are left out: the three lists `PluginUse::of` looks an id up in.
#include "engine/plugin_use.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "engine/input_generation.hpp"

namespace sbx::engine {

PluginUse::PluginUse(const config::Settings &settings, const plugins::Registry &registry) {
    listed_ = settings.injectors;
    listed_.insert(listed_.end(), settings.metrics.begin(), settings.metrics.end());
    for (const auto &id : strategy_chain(nlohmann::json(settings.stub_strategy))) {
        listed_.push_back(id);
    }
    listed_.insert(listed_.end(), {settings.executor, settings.vm_executor, settings.predictor});
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

std::string PluginUse::of(const std::string &id) const {
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

}  // namespace sbx::engine
