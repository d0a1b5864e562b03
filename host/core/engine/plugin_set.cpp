// Creating the configured plugin instances, with configuration errors mapped to YAML.
#include "engine/plugin_set.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "config/suggest.hpp"
#include "engine/input_generation.hpp"
#include "engine/network_safety.hpp"
#include "util/errors.hpp"

namespace sbx::engine {

void check_plugin_sections(const config::Settings &settings, const plugins::Registry &registry) {
    for (const auto &[id, section] : settings.plugins) {
        if (registry.find(id)) {
            continue;
        }
        // Only now every file is opened: a command that names only its plugins opens no more.
        std::vector<std::string> ids;
        for (const auto &plugin : registry.plugins()) {
            ids.push_back(plugin->id());
        }
        const std::string where =
            !section.key_where.file.empty() ? section.key_where.str() : settings.source;
        std::string message = where;
        message.append(": plugins.").append(id).append(" configures no plugin (none has the id '");
        message.append(id).append("'); ").append(config::did_you_mean(id, ids));
        message.append("fix the id, or remove the section; loaded plugins: ");
        message.append(config::join(ids));
        for (const auto &refusal : registry.refused()) {
            message += "\n  refused: " + refusal.reason;
        }
        throw InputError(message);
    }
}

namespace {

// The fault proxies of a run must live in its network namespace, so `network` prepares
// first: the other order would make every network scenario of a workflow with upstreams an
// error in every run. Said once, at the line, before anything runs.
void check_injector_order(const config::Settings &settings) {
    const auto &ids = settings.injectors;
    const auto proxy = std::find(ids.begin(), ids.end(), "fault_proxy");
    const auto network = std::find(ids.begin(), ids.end(), "network");
    if (proxy == ids.end() || network == ids.end() || network < proxy) {
        return;
    }
    const auto index = static_cast<size_t>(proxy - ids.begin());
    const auto where = index < settings.injector_locations.size()
                           ? settings.injector_locations[index]
                           : config::SourceLocation{};
    throw InputError((where.file.empty() ? settings.source : where.str()) +
                     ": injectors lists fault_proxy before network; list network first (as the "
                     "default list does), so each run's fault proxies live in its network "
                     "namespace");
}

}  // namespace

PluginSet::PluginSet(const config::Settings &settings, const plugins::Registry &registry)
    : settings_(settings), registry_(registry) {
    check_injector_order(settings);
    check_safe_mode_injectors(settings);
    // A misspelt section would leave the plugin it meant on its defaults, silently.
    check_plugin_sections(settings, registry);
    // Each "where" is the YAML position of the id, so a typo points at its line.
    const auto at = [&](const config::SourceLocation &where, const std::string &key) {
        return !where.file.empty() ? where.str() : settings.source + " (" + key + ")";
    };
    executor_ = make(settings.executor, SBX_KIND_EXECUTOR, at(settings.executor_where, "executor"));
    for (size_t i = 0; i < settings.injectors.size(); ++i) {
        const auto where = i < settings.injector_locations.size() ? settings.injector_locations[i]
                                                                  : config::SourceLocation{};
        injectors_.push_back(
            make(settings.injectors[i], SBX_KIND_INJECTOR, at(where, "injectors")));
    }
    for (size_t i = 0; i < settings.metrics.size(); ++i) {
        const auto where = i < settings.metric_locations.size() ? settings.metric_locations[i]
                                                                : config::SourceLocation{};
        collectors_.push_back(make(settings.metrics[i], SBX_KIND_METRICS, at(where, "metrics")));
    }
    join_active_by_default(SBX_KIND_INJECTOR, settings.injectors, settings.injectors_left_out,
                           injectors_);
    join_active_by_default(SBX_KIND_METRICS, settings.metrics, settings.metrics_left_out,
                           collectors_);
    predictor_ =
        make(settings.predictor, SBX_KIND_PREDICTOR, at(settings.predictor_where, "predictor"));
    for (size_t i = 0; i < settings.predictors.size(); ++i) {
        if (settings.predictors[i] == settings.predictor) {
            continue;  // it forecasts already, as the shown one
        }
        const auto where = i < settings.predictor_locations.size() ? settings.predictor_locations[i]
                                                                   : config::SourceLocation{};
        compared_predictors_.push_back(
            make(settings.predictors[i], SBX_KIND_PREDICTOR, at(where, "predictors")));
    }
    // Every link of the default chain must load now, not at the first cell.
    for (const auto &id : strategy_chain(nlohmann::json(settings.stub_strategy))) {
        stub(id, at(settings.stub_strategy_where, "stub_strategy"));
    }
}

void PluginSet::join_active_by_default(
    const std::string &kind, const std::vector<std::string> &listed,
    const std::vector<std::pair<std::string, config::SourceLocation>> &left_out,
    std::vector<std::unique_ptr<plugins::Instance>> &into) {
    const auto named = [](const auto &ids, const std::string &id) {
        return std::find(ids.begin(), ids.end(), id) != ids.end();
    };
    std::vector<std::string> left_out_ids;
    for (const auto &[id, where] : left_out) {
        // A misspelt `-id` would leave the drop-in it meant running, silently.
        if (registry_.find(id) == nullptr) {
            throw InputError(where.str() + ": -" + id + " leaves out no plugin: no plugin " +
                             "directory has one with that id; write the id plugins list shows");
        }
        left_out_ids.push_back(id);
    }
    for (const auto &plugin : registry_.active_by_default(kind)) {
        const std::string &id = plugin->id();
        if (named(listed, id) || named(left_out_ids, id)) {
            continue;
        }
        spdlog::info("using {} {} from {}: it is active by default (leave it out with -{} in {}:)",
                     kind, id, plugin->path().string(), id,
                     kind == SBX_KIND_METRICS ? "metrics" : "injectors");
        into.push_back(make(id, kind, plugin->path().string()));
    }
}

bool wants_vm(const presets::Preset &preset, const config::Settings &settings) {
    if (preset.body.contains("VM_SETTINGS")) {
        return true;
    }
    const auto os_type = preset.body.find("OS_TYPE");
    if (os_type == preset.body.end()) {
        return false;
    }
    const std::string name = os_type->is_string() ? os_type->get<std::string>() : os_type->dump();
    return std::find(settings.vm_os_types.begin(), settings.vm_os_types.end(), name) !=
           settings.vm_os_types.end();
}

std::pair<std::string, std::string> PluginSet::executor_choice(
    const config::Workflow &workflow, const presets::Preset *preset) const {
    if (!workflow.executor.empty()) {
        return {workflow.executor, workflow.executor_where.str()};
    }
    if (preset != nullptr && wants_vm(*preset, settings_)) {
        const std::string where =
            !settings_.vm_executor_where.file.empty()
                ? settings_.vm_executor_where.str()
                : preset->origin + " (VM_SETTINGS or OS_TYPE: the settings' vm_executor)";
        return {settings_.vm_executor, where};
    }
    return {settings_.executor, settings_.executor_where.str()};
}

plugins::Instance &PluginSet::executor_for(const config::Workflow &workflow,
                                           const presets::Preset *preset) {
    const auto [id, where] = executor_choice(workflow, preset);
    if (id == settings_.executor) {
        return *executor_;
    }
    auto found = workflow_executors_.find(id);
    if (found == workflow_executors_.end()) {
        found = workflow_executors_.emplace(id, make(id, SBX_KIND_EXECUTOR, where)).first;
    }
    return *found->second;
}

plugins::Instance &PluginSet::executor_copy(const config::Workflow &workflow,
                                            const presets::Preset *preset, size_t copy) {
    auto &first = executor_for(workflow, preset);
    if (copy == 0) {
        return first;
    }
    const auto key = std::make_pair(first.plugin().id(), copy);
    auto found = executor_copies_.find(key);
    if (found == executor_copies_.end()) {
        const auto where = executor_choice(workflow, preset).second;
        found = executor_copies_.emplace(key, make(first.plugin().id(), SBX_KIND_EXECUTOR, where))
                    .first;
    }
    return *found->second;
}

plugins::Instance &PluginSet::stub(const std::string &id, const std::string &where) {
    auto found = stubs_.find(id);
    if (found == stubs_.end()) {
        found = stubs_.emplace(id, make(id, SBX_KIND_STUB, where)).first;
    }
    return *found->second;
}

std::unique_ptr<plugins::Instance> PluginSet::make(const std::string &id, const std::string &kind,
                                                   const std::string &where) {
    const auto plugin = registry_.require(id, kind, where);
    const auto section = settings_.plugins.find(id);
    nlohmann::json config = nlohmann::json::object();
    plugins::ConfigLocator locate;
    if (section != settings_.plugins.end()) {
        config = section->second.value;
        const auto &plugin_config = section->second;
        locate = [&plugin_config](const std::string &pointer) {
            const auto at = plugin_config.locations.find(pointer);
            return at != plugin_config.locations.end() ? at->second.str()
                                                       : plugin_config.where.str();
        };
    }
    return plugin->create(config, locate);
}

void PluginSet::mark_idle(const std::string &preset_text, const std::string &injector_id) {
    idle_injectors_[preset_text].insert(injector_id);
}

const std::set<std::string> &PluginSet::idle_injectors(const std::string &preset_text) const {
    static const std::set<std::string> kNone;
    const auto found = idle_injectors_.find(preset_text);
    return found == idle_injectors_.end() ? kNone : found->second;
}

std::vector<std::shared_ptr<const plugins::Plugin>> PluginSet::used() const {
    std::vector<std::shared_ptr<const plugins::Plugin>> all;
    const auto add = [&](const plugins::Instance &instance) {
        all.push_back(instance.plugin().shared_from_this());
    };
    add(*executor_);
    for (const auto &i : injectors_) {
        add(*i);
    }
    for (const auto &i : collectors_) {
        add(*i);
    }
    add(*predictor_);
    for (const auto &i : compared_predictors_) {
        add(*i);
    }
    for (const auto &[id, instance] : stubs_) {
        add(*instance);
    }
    for (const auto &[id, instance] : workflow_executors_) {
        add(*instance);
    }
    return all;
}

}  // namespace sbx::engine
