// The injectors' probe before a matrix.
#include "engine/injector_preflight.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "plugins/plugin.hpp"
#include "util/errors.hpp"

namespace sbx::engine {
namespace {

// What one injector's probe answer claims of the preset: its "claims" list, whether it acts
// or not (a timeout left to the preset's own TIMEOUT is still the timeout mode, made). An
// active answer without one may act on any key; an inactive one claims nothing.
void add_claims(FaultClaims &claims, const std::string &injector, const nlohmann::json &response) {
    if (!response.is_object()) {
        claims.unspecific.push_back(injector);
        return;
    }
    const auto listed = response.find("claims");
    if (listed != response.end() && listed->is_array()) {
        for (const auto &claim : *listed) {
            if (claim.is_string()) {
                claims.claimed.insert(claim.get<std::string>());
            }
        }
        return;
    }
    if (response.value("active", false)) {
        claims.unspecific.push_back(injector);
    }
}

}  // namespace

std::vector<FaultClaims> refuse_unworkable_faults(PluginSet &plugins,
                                                  const std::vector<presets::Preset> &presets,
                                                  const std::string &state_dir) {
    std::vector<FaultClaims> all_claims;
    int probe = 0;
    for (const presets::Preset &preset : presets) {
        FaultClaims &claims = all_claims.emplace_back();
        const std::string preset_text = preset.body.dump();
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
                claims.unspecific.push_back(injector->plugin().id());
                continue;
            } catch (const std::exception &error) {
                spdlog::debug("probe of preset {} with injector {}: {}", preset.name,
                              injector->plugin().id(), error.what());
                claims.unspecific.push_back(injector->plugin().id());
                continue;
            }
            add_claims(claims, injector->plugin().id(), response);
            // Idle: inactive under this preset whatever the run, so its runs skip it (a
            // parse and a spec per run and injector, a tenth of a run of /bin/true each).
            if (response.is_object() && !response.value("active", false) &&
                response.value("idle", false)) {
                plugins.mark_idle(preset_text, injector->plugin().id());
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
    return all_claims;
}

}  // namespace sbx::engine
