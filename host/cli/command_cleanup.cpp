// `purge-stale` (and its alias `cleanup`) removes what crashed hosts left behind and adds the
// plugins' cleanup counters to metrics.db; `check-resources` lists what is left (exit 1 when
// anything is) with the counters; `show-cleanup-stats` prints the counters alone.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>

#include "cli_context.hpp"
#include "cluster/stale_cleanup.hpp"
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

// The JSON of `purge-stale --json` and `check-resources --json`.
void print_json(const cluster::StaleCleanup &cleanup, bool dry_run) {
    nlohmann::json items = nlohmann::json::array();
    for (const auto &item : cleanup.report.items) {
        items.push_back({{"kind", item.kind}, {"what", item.what}});
    }
    std::cout << nlohmann::json{{dry_run ? "left" : "removed", items},
                                {"by_kind", cleanup.by_kind},
                                {"errors", cleanup.report.errors},
                                {"counters", cleanup.counters}}
                     .dump(2)
              << '\n';
}

// One line per item removed or left, the failed sweeps on stderr, a summary and the counters.
void print_text(const cluster::StaleCleanup &cleanup, const std::string &command, bool dry_run) {
    const auto &report = cleanup.report;
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
        for (const auto &[kind, count] : cleanup.by_kind) {
            std::printf(" %s %d", kind.c_str(), count);
        }
        std::printf("\n");
    }
    print_counters_line(cleanup.counters);
}

}  // namespace

int run_cleanup_command(CliContext &context, const std::string &command,
                        const std::vector<std::string> &args) {
    const bool as_json = parse_json_flag(command, args);
    const bool dry_run = command == "check-resources";
    const auto cleanup =
        cluster::clean_up_stale(context.settings, context.registry(), dry_run, command);
    const auto &report = cleanup.report;
    if (as_json) {
        print_json(cleanup, dry_run);
    } else {
        print_text(cleanup, command, dry_run);
    }
    if (!report.errors.empty()) {
        return kExitEnvironment;
    }
    return dry_run && !report.items.empty() ? kExitGateFailed : kExitOk;
}

int run_cleanup_stats_command(CliContext &context, const std::vector<std::string> &args) {
    const bool as_json = parse_json_flag("show-cleanup-stats", args);
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
