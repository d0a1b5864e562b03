// Sweeping or listing what crashed hosts left, with the counters kept.
#include "cluster/stale_cleanup.hpp"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <memory>
#include <vector>

#include "cluster/node_state.hpp"
#include "cluster/stale_jobs.hpp"
#include "store/cleanup_counters.hpp"
#include "store/store.hpp"

namespace sbx::cluster {
namespace {

std::map<std::string, double> counter_totals(store::Store &store) {
    std::map<std::string, double> totals;
    for (const auto &[name, row] : store::read_cleanup_counters(store)) {
        totals[name] = row.value;
    }
    return totals;
}

// The totals in metrics.db; {} when there is no database yet (a reader never creates one).
std::map<std::string, double> counter_totals(const std::filesystem::path &database) {
    if (!std::filesystem::exists(database)) {
        return {};
    }
    store::Store store(database);
    return counter_totals(store);
}

}  // namespace

StaleCleanup clean_up_stale(const config::Settings &settings, const plugins::Registry &registry,
                            bool dry_run, const std::string &command) {
    const auto database = std::filesystem::path(settings.data_dir) / "metrics.db";
    const auto state_dir = settings.state_folder();
    // Opened (created when new) before the sweep, so the counters of what it removes have a
    // place to go; a store that cannot be opened costs the counters, never the cleanup.
    std::unique_ptr<store::Store> store;
    if (!dry_run) {
        try {
            store = std::make_unique<store::Store>(database);
        } catch (const std::exception &e) {
            spdlog::warn("{}: cleanup counters will not be kept: {}", command, e.what());
        }
    }
    // Run on a Slurm node: also what tasks killed on it left, recorded in its folder under
    // the Slurm root (cluster/node_state.hpp).
    std::vector<std::filesystem::path> state_dirs = {state_dir};
    const auto node_state = node_state_folder(slurm_root(settings));
    std::error_code absent;
    if (node_state != state_dir && std::filesystem::is_directory(node_state, absent)) {
        state_dirs.push_back(node_state);
    }
    StaleCleanup cleanup;
    cleanup.report = engine::sweep_stale(registry, settings, state_dirs, dry_run);
    for (auto &job : sweep_stale_jobs(dry_run)) {
        cleanup.report.items.push_back({"slurm", std::move(job)});
    }
    if (store) {
        store::add_cleanup_counters(*store, cleanup.report.counters);
        cleanup.counters = counter_totals(*store);
    } else if (dry_run) {
        cleanup.counters = counter_totals(database);
    }
    for (const auto &item : cleanup.report.items) {
        ++cleanup.by_kind[item.kind];
    }
    return cleanup;
}

nlohmann::json to_json(const StaleCleanup &cleanup, bool dry_run) {
    nlohmann::json items = nlohmann::json::array();
    for (const auto &item : cleanup.report.items) {
        items.push_back({{"kind", item.kind}, {"what", item.what}});
    }
    return {{dry_run ? "left" : "removed", items},
            {"by_kind", cleanup.by_kind},
            {"errors", cleanup.report.errors},
            {"counters", cleanup.counters}};
}

}  // namespace sbx::cluster
