// The probe before a matrix, and the refusal that names what to do.
#include "engine/limit_preflight.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "util/errors.hpp"

namespace sbx::engine {

std::vector<LimitDowngrade> probe_limit_downgrades(PluginSet &plugins,
                                                   const config::Workflow &workflow,
                                                   const std::vector<presets::Preset> &scenarios,
                                                   const std::string &state_dir) {
    std::vector<LimitDowngrade> found;
    int probe = 0;
    for (const presets::Preset &preset : scenarios) {
        const nlohmann::json limits = presets::limit_fields(presets::resolve_limits(preset));
        if (limits.empty()) {
            continue;
        }
        nlohmann::json spec{
            {"run_id", "probe-" + std::to_string(::getpid()) + "-" + std::to_string(++probe)},
            {"argv", {"true"}},
            {"limits", limits},
            {"probe", true},
            {"state_dir", state_dir}};
        if (!workflow.filesystem.empty()) {
            spec["filesystem"] = workflow.filesystem;
        }
        if (!workflow.binds.empty()) {
            spec["binds"] = workflow.binds;
        }
        plugins::Instance &executor = plugins.executor_for(workflow, &preset);
        nlohmann::json result;
        try {
            result = nlohmann::json::parse(executor.run(spec.dump()), nullptr, false);
        } catch (const std::exception &e) {
            // Not a downgrade: whatever stopped the probe stops the real run too, which
            // reports it in its place (a refused state folder, a missing engine, ...).
            spdlog::debug("limit probe of scenario {} on {}: {}", preset.name,
                          executor.plugin().id(), e.what());
            continue;
        }
        if (!result.is_object() || !result.contains("downgraded") ||
            !result["downgraded"].is_array()) {
            continue;
        }
        for (const auto &entry : result["downgraded"]) {
            if (!entry.is_object()) {
                continue;
            }
            found.push_back({preset.name, executor.plugin().id(), entry.value("limit", "?"),
                             entry.value("asked", ""), entry.value("got", ""),
                             entry.value("fix", "")});
        }
    }
    return found;
}

void refuse_limit_downgrades(const std::vector<LimitDowngrade> &found, bool allowed) {
    if (found.empty()) {
        return;
    }
    if (allowed) {
        for (const auto &downgrade : found) {
            spdlog::warn("scenario {}: limit {} downgraded on executor {}: {} (asked: {})",
                         downgrade.preset, downgrade.limit, downgrade.executor, downgrade.got,
                         downgrade.asked);
        }
        return;
    }
    std::string message =
        "a scenario asks for limits that cannot be enforced as asked here, "
        "so its verdict would not mean what it says:";
    for (const auto &downgrade : found) {
        message += "\n  scenario " + downgrade.preset + ": " + downgrade.limit + " on executor " +
                   downgrade.executor + " would be " + downgrade.got +
                   " (asked: " + downgrade.asked + "); to fix: " + downgrade.fix;
    }
    message +=
        "\nor accept the weaker limits with allow_limit_downgrades: true in "
        "sandbox_settings.yaml (or SANDBOX_ALLOW_LIMIT_DOWNGRADES=1)";
    throw InputError(message);
}

}  // namespace sbx::engine
