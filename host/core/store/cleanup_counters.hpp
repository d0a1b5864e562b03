// The cleanup_counters table: what executor and injector plugins report having cleaned up
// (a run result's `cleanup`, a sweep response's `counters`), accumulated across commands.
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "store/store.hpp"

namespace sbx::store {

// Counter name -> value: deltas on their way into the table, or the table's totals.
using CleanupCounters = std::map<std::string, double>;

// A name holding `_duration_seconds` (`cleanup_duration_seconds_cleanup`) is a gauge: the
// latest report replaces the kept value. Every other counter is summed.
bool is_gauge_counter(const std::string &name);

// Folds one reported value into `into` by the rule above.
void add_counter(CleanupCounters &into, const std::string &name, double value);

// Folds a plugin's report (a JSON object of name -> number) into `into`. What cannot be a
// counter is skipped and described in `ignored`, one line each: a value that is not a
// finite number >= 0, a name outside [A-Za-z0-9_] (at most 128 characters), a report that
// is not an object.
void add_reported_counters(const nlohmann::json &reported, CleanupCounters &into,
                           std::vector<std::string> &ignored);

// Adds `deltas` into the table on `connection` (the caller holds the store's lock and,
// usually, a transaction: record_run writes them with the run).
void write_cleanup_counters(Connection &connection, const CleanupCounters &deltas);
// The same in a transaction of its own (purge-stale).
void add_cleanup_counters(Store &store, const CleanupCounters &deltas);

struct CounterRow {
    double value = 0;
    std::string updated_at;
};
// Every counter in the table, by name.
std::map<std::string, CounterRow> read_cleanup_counters(Store &store);
// The same of the metrics.db at `database`; {} when there is none yet (a reader never
// creates one).
std::map<std::string, CounterRow> read_cleanup_counters(const std::filesystem::path &database);

// {"NAME": {"value", "updated_at"}}, as `show-cleanup-stats --json` gives them.
nlohmann::json counters_json(const std::map<std::string, CounterRow> &rows);

// A counter's value as text: whole numbers without a ".0", so that counts read as counts.
std::string counter_text(double value);

}  // namespace sbx::store
