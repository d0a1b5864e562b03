// The checks behind safe_mode. The protection itself is the network injector's namespace
// (loopback only, no uplink) entered by the executor through the spec's `netns`; what is
// checked here is that both are present and able, since a run that silently fell back to
// the host's network would look exactly like a protected one.
#include "engine/network_safety.hpp"

#include <unistd.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "plugins/plugin.hpp"
#include "util/errors.hpp"

namespace sbx::engine {
namespace {

bool lists(const config::Settings &settings, const std::string &id) {
    return std::find(settings.injectors.begin(), settings.injectors.end(), id) !=
           settings.injectors.end();
}

std::string where_of(const config::Settings &settings, const config::Workflow &workflow) {
    return workflow.safe_mode_where.file.empty() ? settings.source : workflow.safe_mode_where.str();
}

}  // namespace

void check_safe_mode_injectors(const config::Settings &settings) {
    for (const auto &workflow : settings.workflows) {
        if (!workflow.safe_mode) {
            continue;
        }
        if (!lists(settings, "network")) {
            throw InputError(where_of(settings, workflow) + ": workflow '" + workflow.name +
                             "' has safe_mode: true, but injectors: does not list network, "
                             "which makes the run's namespace without a way out; add network to "
                             "injectors: (first), or remove safe_mode");
        }
        const bool reaches_out = !workflow.upstreams.empty() || !workflow.services.empty() ||
                                 !workflow.network_mocks.empty();
        if (reaches_out && !lists(settings, "fault_proxy")) {
            throw InputError(where_of(settings, workflow) + ": workflow '" + workflow.name +
                             "' has safe_mode: true and upstreams, services or network_mocks, "
                             "but injectors: does not list fault_proxy, whose proxies inside "
                             "the run's namespace are its only way to them; add fault_proxy "
                             "to injectors: (after network)");
        }
    }
}

void refuse_unsafe_network(PluginSet &plugins, const config::Workflow &workflow,
                           const std::vector<presets::Preset> &presets,
                           const std::string &state_dir) {
    if (!workflow.safe_mode) {
        return;
    }
    const std::string where =
        workflow.safe_mode_where.file.empty()
            ? "workflow '" + workflow.name + "'"
            : workflow.safe_mode_where.str() + ": workflow '" + workflow.name + "'";
    const std::string run_id = "probe-" + std::to_string(::getpid()) + "-safe-mode";
    const nlohmann::json spec{
        {"run_id", run_id}, {"argv", {"true"}},  {"env", nlohmann::json::object()},
        {"probe", true},    {"safe_mode", true}, {"state_dir", state_dir}};
    for (auto &injector : plugins.injectors()) {
        if (injector->plugin().id() != "network") {
            continue;
        }
        const nlohmann::json request{{"spec", spec},
                                     {"run_id", run_id},
                                     {"state_dir", state_dir},
                                     {"preset", nlohmann::json::object()},
                                     {"probe", true}};
        nlohmann::json response;
        try {
            response = nlohmann::json::parse(injector->prepare(request.dump()), nullptr, false);
        } catch (const plugins::PluginCallError &error) {
            if (error.status() == SBX_CANCELLED) {
                throw;
            }
            throw InputError(where +
                             " has safe_mode: true, which cannot hold here: the network "
                             "injector says: " +
                             std::string(error.what()));
        }
        if (!response.is_object() || !response.value("active", false)) {
            throw InputError(where +
                             " has safe_mode: true, but the network injector loaded "
                             "does not make a namespace for it (an older plugin?); "
                             "install the one built with this host");
        }
    }
    std::set<std::string> probed;
    for (const presets::Preset &preset : presets) {
        plugins::Instance &executor = plugins.executor_for(workflow, &preset);
        if (!probed.insert(executor.plugin().id()).second) {
            continue;
        }
        nlohmann::json result;
        try {
            result = nlohmann::json::parse(executor.run(spec.dump()), nullptr, false);
        } catch (const plugins::PluginCallError &error) {
            if (error.status() == SBX_CANCELLED) {
                throw;
            }
            result = nullptr;  // said below, as an executor that cannot
        }
        const bool holds =
            result.is_object() && result.contains("safe_mode") && result["safe_mode"].is_string();
        if (!holds) {
            throw InputError(where + " has safe_mode: true, but executor '" +
                             executor.plugin().id() +
                             "' does not say it runs targets inside the run's network "
                             "namespace (its probe answers no safe_mode), so its runs would "
                             "not be kept off the network; run the workflow on the local or "
                             "docker executor, or remove safe_mode");
        }
    }
}

}  // namespace sbx::engine
