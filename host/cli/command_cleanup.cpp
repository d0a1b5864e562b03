// `purge-stale` (and its alias `cleanup`) removes what crashed hosts left behind and adds the
// plugins' cleanup counters to metrics.db; `check-resources` lists what is left (exit 1 when
// anything is) with the counters; `cleanup-stats` prints the counters alone.
#include <spdlog/spdlog.h>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>

#include "cli_context.hpp"
#include "cluster/node_state.hpp"
#include "cluster/stale_jobs.hpp"
#include "engine/stale_resources.hpp"
#include "store/cleanup_counters.hpp"
#include "util/errors.hpp"

namespace sbx::cli {
namespace {

bool parse_json_flag(const std::string &command, const std::vector<std::string> &args) {
    bool as_json = false;
    for (const auto &arg : args) {
        if (arg != "--json") {
            std::string message = command;
            message += ": unknown argument '" + arg + "'; use `sandbox-runner ";
            message += command + " [--json]`";
            throw InputError(message);
        }
        as_json = true;
    }
    return as_json;
}

std::filesystem::path database_path(const CliContext &context) {
    return std::filesystem::path(context.settings.data_dir) / "metrics.db";
}

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

// Whole numbers without a ".0": counts read as counts.
std::string format_value(double value) {
    if (std::floor(value) == value && std::fabs(value) < 1e15) {
        return std::to_string(static_cast<long long>(value));
    }
    return nlohmann::json(value).dump();
}

// "counters: cleanup_idle=3 stale_containers_removed=1", or "counters: none".
void print_counters_line(const std::map<std::string, double> &totals) {
    std::string line = "counters:";
    if (totals.empty()) {
        line += " none";
    }
    for (const auto &[name, value] : totals) {
        line += " " + name + "=" + format_value(value);
    }
    std::printf("%s\n", line.c_str());
}

}  // namespace

int run_cleanup_command(CliContext &context, const std::string &command,
                        const std::vector<std::string> &args) {
    const bool as_json = parse_json_flag(command, args);
    const bool dry_run = command == "check-resources";
    const auto state_dir = context.settings.state_folder();
    // Opened (created when new) before the sweep, so the counters of what it removes have a
    // place to go; a store that cannot be opened costs the counters, never the cleanup.
    std::unique_ptr<store::Store> store;
    if (!dry_run) {
        try {
            store = std::make_unique<store::Store>(database_path(context));
        } catch (const std::exception &e) {
            spdlog::warn("{}: cleanup counters will not be kept: {}", command, e.what());
        }
    }
    // Run on a Slurm node: also what tasks killed on it left, recorded in its folder under
    // the Slurm root (cluster/node_state.hpp).
    std::vector<std::filesystem::path> state_dirs = {state_dir};
    const auto node_state = cluster::node_state_folder(cluster::slurm_root(context.settings));
    std::error_code absent;
    if (node_state != state_dir && std::filesystem::is_directory(node_state, absent)) {
        state_dirs.push_back(node_state);
    }
    auto report = engine::sweep_stale(context.registry(), context.settings, state_dirs, dry_run);
    for (auto &job : cluster::sweep_stale_jobs(dry_run)) {
        report.items.push_back({"slurm", std::move(job)});
    }
    std::map<std::string, double> totals;
    if (store) {
        store::add_cleanup_counters(*store, report.counters);
        totals = counter_totals(*store);
    } else if (dry_run) {
        totals = counter_totals(database_path(context));
    }

    std::map<std::string, int> by_kind;
    for (const auto &item : report.items) {
        ++by_kind[item.kind];
    }
    if (as_json) {
        nlohmann::json items = nlohmann::json::array();
        for (const auto &item : report.items) {
            items.push_back({{"kind", item.kind}, {"what", item.what}});
        }
        std::cout << nlohmann::json{{dry_run ? "left" : "removed", items},
                                    {"by_kind", by_kind},
                                    {"errors", report.errors},
                                    {"counters", totals}}
                         .dump(2)
                  << '\n';
    } else {
        for (const auto &item : report.items) {
            std::printf("%s %s: %s\n", dry_run ? "left" : "removed", item.kind.c_str(),
                        item.what.c_str());
        }
        for (const auto &error : report.errors) {
            std::fprintf(stderr, "sandbox-runner: %s: sweep failed: %s\n", command.c_str(),
                         error.c_str());
        }
        if (report.items.empty()) {
            std::printf("%s\n", dry_run ? "nothing left behind" : "nothing to remove");
        } else {
            std::printf("%s:", dry_run ? "left behind" : "removed");
            for (const auto &[kind, count] : by_kind) {
                std::printf(" %s %d", kind.c_str(), count);
            }
            std::printf("\n");
        }
        print_counters_line(totals);
    }
    if (!report.errors.empty()) {
        return kExitEnvironment;
    }
    return dry_run && !report.items.empty() ? kExitGateFailed : kExitOk;
}

int run_cleanup_stats_command(CliContext &context, const std::vector<std::string> &args) {
    const bool as_json = parse_json_flag("cleanup-stats", args);
    const auto database = database_path(context);
    std::map<std::string, store::CounterRow> rows;
    if (std::filesystem::exists(database)) {
        store::Store store(database);
        rows = store::read_cleanup_counters(store);
    }
    if (as_json) {
        nlohmann::json counters = nlohmann::json::object();
        for (const auto &[name, row] : rows) {
            counters[name] = {{"value", row.value}, {"updated_at", row.updated_at}};
        }
        std::cout << nlohmann::json{{"database", database.string()}, {"counters", counters}}.dump(2)
                  << '\n';
        return kExitOk;
    }
    if (rows.empty()) {
        std::printf("no cleanup counters in %s\n", database.string().c_str());
        return kExitOk;
    }
    for (const auto &[name, row] : rows) {
        std::printf("%-36s %14s  %s\n", name.c_str(), format_value(row.value).c_str(),
                    row.updated_at.c_str());
    }
    return kExitOk;
}

}  // namespace sbx::cli
