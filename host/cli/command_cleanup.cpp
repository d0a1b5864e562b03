// `purge-stale` (and its alias `cleanup`) removes what crashed hosts left behind and adds the
// plugins' cleanup counters to metrics.db; `check-resources` lists what is left (exit 1 when
// anything is) with the counters; `show-cleanup-stats` prints the counters alone.
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

// "counters: cleanup_idle=3 stale_containers_removed=1", or "counters: none".
void print_counters_line(const std::map<std::string, double> &totals) {
    std::string line = "counters:";
    if (totals.empty()) {
        line += " none";
    }
    for (const auto &[name, value] : totals) {
        line += " " + name + "=" + store::counter_text(value);
    }
    std::printf("%s\n", line.c_str());
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
        std::cout << cluster::to_json(cleanup, dry_run).dump(2) << '\n';
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
    const auto database = std::filesystem::path(context.settings.data_dir) / "metrics.db";
    const auto rows = store::read_cleanup_counters(database);
    if (as_json) {
        std::cout << nlohmann::json{{"database", database.string()},
                                    {"counters", store::counters_json(rows)}}
                         .dump(2)
                  << '\n';
        return kExitOk;
    }
    if (rows.empty()) {
        std::printf("no cleanup counters in %s\n", database.string().c_str());
        return kExitOk;
    }
    for (const auto &[name, row] : rows) {
        std::printf("%-36s %14s  %s\n", name.c_str(), store::counter_text(row.value).c_str(),
                    row.updated_at.c_str());
    }
    return kExitOk;
}

}  // namespace sbx::cli
