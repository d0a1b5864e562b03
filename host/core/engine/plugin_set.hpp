// The plugin instances one command works with, created from the settings: the executor,
// the injectors, the stub strategies, the metrics collectors and the predictor.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "config/settings.hpp"
#include "plugins/registry.hpp"
#include "presets/preset.hpp"

namespace sbx::engine {

// True when `preset` sets VM_SETTINGS or an OS_TYPE listed in the settings' vm_os_types.
bool wants_vm(const presets::Preset &preset, const config::Settings &settings);

// Throws InputError at the key's line when a section under `plugins:` names no loaded plugin
// (with "did you mean" and the loaded ids, and the refused files, the usual cause).
void check_plugin_sections(const config::Settings &settings, const plugins::Registry &registry);

class PluginSet {
  public:
    // Resolves every plugin the settings name (InputError with file:line:column when one
    // is missing or its configuration breaks its schema) and creates instances.
    PluginSet(const config::Settings &settings, const plugins::Registry &registry);

    plugins::Instance &executor() { return *executor_; }
    // The workflow's own `executor:` when it names one; else `vm_executor` when `preset`
    // asks for a virtual machine (wants_vm); else the default executor.
    plugins::Instance &executor_for(const config::Workflow &workflow,
                                    const presets::Preset *preset = nullptr);
    // Copy `copy` of that executor: copy 0 is executor_for(workflow, preset); others are
    // further instances of the same plugin, created on first use, so CONCURRENCY_LEVEL copies
    // of a step can run at once (the ABI serializes calls per instance).
    plugins::Instance &executor_copy(const config::Workflow &workflow,
                                     const presets::Preset *preset, size_t copy);
    std::vector<std::unique_ptr<plugins::Instance>> &injectors() { return injectors_; }
    std::vector<std::unique_ptr<plugins::Instance>> &collectors() { return collectors_; }
    plugins::Instance &predictor() { return *predictor_; }
    // The predictors compared beside the shown one (settings' `predictors:` without it).
    std::vector<std::unique_ptr<plugins::Instance>> &compared_predictors() {
        return compared_predictors_;
    }
    // The stub strategy `id`, created on first use (presets choose it per run).
    plugins::Instance &stub(const std::string &id, const std::string &where);
    [[nodiscard]] const std::string &default_stub() const { return settings_.stub_strategy; }
    [[nodiscard]] const config::Settings &settings() const { return settings_; }
    // The collectors and predictors disabled in this command, shared by every worker.
    [[nodiscard]] plugins::DisabledPlugins &disabled() const { return registry_.disabled(); }
    // Every instance's plugin, for the session record.
    [[nodiscard]] std::vector<std::shared_ptr<const plugins::Plugin>> used() const;
    // The injectors whose probe promised to stay inactive under a preset, keyed by the
    // preset's JSON text (engine/injector_preflight): its runs do not call them. Marked
    // before the runs start, only read while they run.
    void mark_idle(const std::string &preset_text, const std::string &injector_id);
    [[nodiscard]] const std::set<std::string> &idle_injectors(const std::string &preset_text) const;
    // The marks of `other` (the primary set, probed), for a worker's own set.
    void copy_idle_marks(const PluginSet &other) { idle_injectors_ = other.idle_injectors_; }

  private:
    // The executor id for a run and where it was chosen (for a "no such plugin" error).
    [[nodiscard]] std::pair<std::string, std::string> executor_choice(
        const config::Workflow &workflow, const presets::Preset *preset) const;
    std::unique_ptr<plugins::Instance> make(const std::string &id, const std::string &kind,
                                            const std::string &where);
    // Adds an instance of each drop-in of `kind` that is active by default (ABI 1.2) and
    // neither `listed` nor `left_out` (InputError at a `-id` that names no plugin).
    void join_active_by_default(
        const std::string &kind, const std::vector<std::string> &listed,
        const std::vector<std::pair<std::string, config::SourceLocation>> &left_out,
        std::vector<std::unique_ptr<plugins::Instance>> &into);

    const config::Settings &settings_;
    const plugins::Registry &registry_;
    std::unique_ptr<plugins::Instance> executor_;
    std::vector<std::unique_ptr<plugins::Instance>> injectors_;
    std::vector<std::unique_ptr<plugins::Instance>> collectors_;
    std::unique_ptr<plugins::Instance> predictor_;
    std::vector<std::unique_ptr<plugins::Instance>> compared_predictors_;
    std::map<std::string, std::unique_ptr<plugins::Instance>> stubs_;
    std::map<std::string, std::unique_ptr<plugins::Instance>> workflow_executors_;
    std::map<std::pair<std::string, size_t>, std::unique_ptr<plugins::Instance>> executor_copies_;
    std::map<std::string, std::set<std::string>> idle_injectors_;
};

}  // namespace sbx::engine
