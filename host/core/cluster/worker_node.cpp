// What a Slurm array task makes right on its node before its shard runs.
#include "cluster/worker_node.hpp"

#include <unistd.h>

#include <cstdlib>

#include <spdlog/spdlog.h>

#include "cluster/node_state.hpp"
#include "engine/stale_resources.hpp"
#include "store/cleanup_counters.hpp"

namespace sbx::cluster {

void drop_unusable_tmpdir() {
    const char *tmpdir = std::getenv("TMPDIR");
    if (tmpdir == nullptr || tmpdir[0] == '\0') {
        return;
    }
    std::error_code error;
    if (std::filesystem::is_directory(tmpdir, error) && ::access(tmpdir, W_OK | X_OK) == 0) {
        return;
    }
    spdlog::warn(
        "worker: TMPDIR={} is not a folder node {} can write (the submitting host's); "
        "using the node's default instead",
        tmpdir, node_name());
    ::unsetenv("TMPDIR");
}

void sweep_node_leftovers(const config::Settings &settings, plugins::Registry &registry) {
    const auto folder = settings.state_folder();
    std::error_code error;
    if (!std::filesystem::is_directory(folder, error)) {
        return;  // the node's first task: nothing can be left
    }
    const auto report = engine::sweep_stale(registry, settings, {folder}, false);
    for (const auto &item : report.items) {
        spdlog::warn("worker: removed what a killed task left on node {}: {} {}", node_name(),
                     item.kind, item.what);
    }
    if (!report.counters.empty()) {
        // Into the shard's store, whose counters the host merges with its runs.
        store::Store store(std::filesystem::path(settings.data_dir) / "metrics.db");
        store::add_cleanup_counters(store, report.counters);
    }
    for (const auto &sweep_error : report.errors) {
        spdlog::warn("worker: sweeping node {}'s leftovers failed: {}", node_name(), sweep_error);
    }
}

}  // namespace sbx::cluster
