// Counters are merged in SQL (an upsert), so two hosts writing the same database add up
// instead of overwriting each other's totals.
#include "store/cleanup_counters.hpp"

#include <algorithm>
#include <cmath>

namespace sbx::store {
namespace {

constexpr std::size_t kMaxNameLength = 128;

bool valid_name(const std::string &name) {
    return !name.empty() && name.size() <= kMaxNameLength &&
           std::all_of(name.begin(), name.end(), [](char c) {
               return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '_';
           });
}

}  // namespace

bool is_gauge_counter(const std::string &name) {
    return name.find("_duration_seconds") != std::string::npos;
}

void add_counter(CleanupCounters &into, const std::string &name, double value) {
    if (is_gauge_counter(name)) {
        into[name] = value;
    } else {
        into[name] += value;
    }
}

void add_reported_counters(const nlohmann::json &reported, CleanupCounters &into,
                           std::vector<std::string> &ignored) {
    if (reported.is_null()) {
        return;
    }
    if (!reported.is_object()) {
        ignored.push_back("not an object of counters: " + reported.dump().substr(0, 80));
        return;
    }
    for (const auto &[name, value] : reported.items()) {
        if (!valid_name(name)) {
            ignored.push_back("'" + name.substr(0, 80) +
                              "': a counter name is 1 to 128 of [A-Za-z0-9_]");
            continue;
        }
        if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0) {
            ignored.push_back("'" + name + "': " + value.dump().substr(0, 80) +
                              " is not a finite number >= 0");
            continue;
        }
        add_counter(into, name, value.get<double>());
    }
}

void write_cleanup_counters(Connection &connection, const CleanupCounters &deltas) {
    if (deltas.empty()) {
        return;
    }
    Statement upsert(connection.get(),
                     "INSERT INTO cleanup_counters(name, value, updated_at) VALUES(?1, ?2, ?3) "
                     "ON CONFLICT(name) DO UPDATE SET value = CASE WHEN ?4 THEN excluded.value "
                     "ELSE value + excluded.value END, updated_at = excluded.updated_at");
    const std::string now = utc_now();
    for (const auto &[name, value] : deltas) {
        upsert.bind(1, name)
            .bind(2, value)
            .bind(3, now)
            .bind(4, int64_t{is_gauge_counter(name) ? 1 : 0})
            .run();
    }
}

void add_cleanup_counters(Store &store, const CleanupCounters &deltas) {
    store.locked([&](Connection &connection) {
        Transaction transaction(connection);
        write_cleanup_counters(connection, deltas);
        transaction.commit();
    });
}

std::map<std::string, CounterRow> read_cleanup_counters(Store &store) {
    return store.locked([](Connection &connection) {
        std::map<std::string, CounterRow> rows;
        Statement query(connection.get(),
                        "SELECT name, value, updated_at FROM cleanup_counters ORDER BY name");
        while (query.step()) {
            rows[query.column_text(0)] = {query.column_double(1), query.column_text(2)};
        }
        return rows;
    });
}

std::map<std::string, CounterRow> read_cleanup_counters(const std::filesystem::path &database) {
    if (!std::filesystem::exists(database)) {
        return {};
    }
    Store store(database);
    return read_cleanup_counters(store);
}

nlohmann::json counters_json(const std::map<std::string, CounterRow> &rows) {
    nlohmann::json counters = nlohmann::json::object();
    for (const auto &[name, row] : rows) {
        counters[name] = {{"value", row.value}, {"updated_at", row.updated_at}};
    }
    return counters;
}

std::string counter_text(double value) {
    if (std::floor(value) == value && std::fabs(value) < 1e15) {
        return std::to_string(static_cast<long long>(value));
    }
    return nlohmann::json(value).dump();
}

}  // namespace sbx::store
