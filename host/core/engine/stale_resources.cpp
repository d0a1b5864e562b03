// Sweeping every injector, every executor, the services and the workspaces.
#include "engine/stale_resources.hpp"

#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "engine/service_container.hpp"
#include "engine/stale_services.hpp"
#include "engine/workspace_lease.hpp"
#include "store/cleanup_counters.hpp"

namespace sbx::engine {

SweepReport sweep_stale(const plugins::Registry &registry, const config::Settings &settings,
                        const std::vector<std::filesystem::path> &state_dirs, bool dry_run) {
    SweepReport report;
    // First, though listed last: a refused per-user folder (InputError) stops the command
    // before any plugin has removed anything.
    auto workspaces = sweep_workspaces(dry_run);
    for (const auto &plugin : registry.plugins()) {
        if (plugin->kind() != SBX_KIND_INJECTOR && plugin->kind() != SBX_KIND_EXECUTOR) {
            continue;
        }
        try {
            const auto section = settings.plugins.find(plugin->id());
            auto instance =
                plugin->create(section != settings.plugins.end() ? section->second.value
                                                                 : nlohmann::json::object(),
                               {});
            for (const auto &state_dir : state_dirs) {
                const auto answer = nlohmann::json::parse(instance->sweep(nlohmann::json{
                    {"state_dir", state_dir.string()}, {"dry_run", dry_run}}.dump()));
                for (const auto &item : answer.value("removed", nlohmann::json::array())) {
                    if (item.is_string()) {
                        report.items.push_back({plugin->id(), item.get<std::string>()});
                    }
                }
                const auto counters = answer.find("counters");
                if (!dry_run && counters != answer.end()) {
                    std::vector<std::string> ignored;
                    store::add_reported_counters(*counters, report.counters, ignored);
                    for (const auto &why : ignored) {
                        spdlog::warn("plugin '{}': sweep response field counters: ignored {}",
                                     plugin->id(), why);
                    }
                }
            }
        } catch (const std::exception &e) {
            // One broken plugin must not keep the others from cleaning up.
            report.errors.push_back(plugin->id() + ": " + e.what());
        }
    }
    // Image services' containers by their labels (the sweep the docker executor's get), once
    // for every state folder: the labels, not a record, say whose they are.
    std::string unreachable;
    for (auto &container : sweep_service_containers(dry_run, unreachable)) {
        report.items.push_back({"service", std::move(container)});
    }
    for (const auto &state_dir : state_dirs) {
        for (auto &service : sweep_services(state_dir, dry_run, unreachable)) {
            report.items.push_back({"service", std::move(service)});
        }
    }
    for (auto &workspace : workspaces) {
        report.items.push_back({"workspace", std::move(workspace)});
    }
    return report;
}

}  // namespace sbx::engine
