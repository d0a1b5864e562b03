// The injectors' probe before a matrix.
#include "engine/injector_preflight.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "plugins/plugin.hpp"
#include "util/errors.hpp"

namespace sbx::engine {

void refuse_unworkable_faults(PluginSet &plugins, const std::vector<presets::Preset> &presets,
                              const std::string &state_dir) {
    int probe = 0;
    for (const presets::Preset &preset : presets) {
        const std::string run_id =
            "probe-" + std::to_string(::getpid()) + "-" + std::to_string(++probe);
        const nlohmann::json request{
            {"spec", {{"run_id", run_id}, {"argv", {"true"}}, {"env", nlohmann::json::object()}}},
            {"run_id", run_id},
            {"state_dir", state_dir},
            {"preset", preset.body},
            {"probe", true}};
        for (auto &injector : plugins.injectors()) {
            nlohmann::json response;
            try {
                response = nlohmann::json::parse(injector->prepare(request.dump()), nullptr, false);
            } catch (const plugins::PluginCallError &error) {
                if (error.status() == SBX_UNSUPPORTED || error.status() == SBX_INVALID) {
                    throw InputError(preset.origin + ": preset '" + preset.name +
                                     "' cannot run here: the " + injector->plugin().id() +
                                     " injector says: " + error.what());
                }
                spdlog::debug("probe of preset {} with injector {}: {}", preset.name,
                              injector->plugin().id(), error.what());
                continue;
            } catch (const std::exception &error) {
                spdlog::debug("probe of preset {} with injector {}: {}", preset.name,
                              injector->plugin().id(), error.what());
                continue;
            }
            // An injector that knows no probe prepared for real: undo it now. An inactive
            // answer with no state prepared nothing.
            if (response.is_object() && !response.value("probe", false) &&
                (response.value("active", false) ||
                 !response.value("state", nlohmann::json()).is_null())) {
                try {
                    injector->teardown(response.value("state", nlohmann::json()).dump());
                } catch (const std::exception &error) {
                    spdlog::debug("teardown after the probe of injector {}: {}",
                                  injector->plugin().id(), error.what());
                }
            }
        }
    }
}

}  // namespace sbx::engine
