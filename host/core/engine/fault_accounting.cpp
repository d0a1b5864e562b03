// Which faults each run really got.
#include "engine/fault_accounting.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "engine/input_generation.hpp"

namespace sbx::engine {

using nlohmann::json;

namespace {

// Preset key or failure mode -> the built-in plugin that acts on it. Input modes (hostile
// input, misuse, schema drift) are the stub strategies', not the environment's.
const std::map<std::string, std::string> &handlers() {
    static const std::map<std::string, std::string> table = {
        {"NETWORK_LATENCY_MS", "network"},
        {"NETWORK_JITTER_MS", "network"},
        {"PACKET_LOSS", "network"},
        {"PACKET_DUPLICATION", "network"},
        {"BANDWIDTH_LIMIT", "network"},
        {"MIN_BANDWIDTH", "network"},
        {"MAX_BANDWIDTH", "network"},
        {"network", "network"},
        {"network_partition", "network"},
        {"API_LATENCY_MS", "fault_proxy"},
        {"UPSTREAM_FAILURES", "fault_proxy"},
        {"UPSTREAM_TIMEOUTS", "fault_proxy"},
        {"CORRUPT_PAYLOAD", "fault_proxy"},
        {"UPSTREAM_BANDWIDTH", "fault_proxy"},
        {"UPSTREAM_SLICE_BYTES", "fault_proxy"},
        {"api_latency", "fault_proxy"},
        {"flaky_upstream", "fault_proxy"},
        {"upstream_timeout", "fault_proxy"},
        {"corrupt_payload", "fault_proxy"},
        {"CPU_SPIKE", "cpu_spike"},
        {"cpu_spike", "cpu_spike"},
        {"THREAD_BURST", "concurrency_spike"},
        {"ASYNC_TASK_BURST", "concurrency_spike"},
        {"concurrency_spike", "concurrency_spike"},
        {"BROKEN_AUTH", "broken_auth"},
        {"broken_auth", "broken_auth"},
        {"disk_corruption", "disk_corruption"},
        {"disk_full", "disk_corruption"},
        {"DISK_FULL_AFTER", "disk_corruption"},
        {"slow_disk", "disk_corruption"},
        {"DISK_WRITE_DELAY_MS", "disk_corruption"},
        {"timeout", "timeout"},
        {"CPU_LIMIT", "the executor"},
        {"CPU_TIME_LIMIT", "the executor"},
        {"MEMORY_LIMIT", "the executor"},
        {"DISK_LIMIT", "the executor"},
        {"DISK_IO_THROTTLE", "the executor"},
        {"TIMEOUT", "the executor"},
        {"PIDS_LIMIT", "the executor"},
        {"CONCURRENCY_LEVEL", "the host"},
    };
    return table;
}

// Preset key -> the name of the limit in an executor result's `enforcement`.
const std::map<std::string, std::string> &limit_names() {
    static const std::map<std::string, std::string> table = {
        {"CPU_LIMIT", "cpu"},   {"CPU_TIME_LIMIT", "cpu_time"},  {"MEMORY_LIMIT", "memory"},
        {"DISK_LIMIT", "disk"}, {"DISK_IO_THROTTLE", "disk_io"}, {"TIMEOUT", "timeout"},
        {"PIDS_LIMIT", "pids"}};
    return table;
}

std::string text_of(const json &value) {
    return value.is_string() ? value.get<std::string>() : value.dump();
}

// A preset value of 0 (or empty) asks for nothing: `NETWORK_LATENCY_MS: 0` keeps a namespace
// without latency, `CONCURRENCY_LEVEL: 1` is one copy. `DISK_FULL_AFTER: 0` is a full disk.
bool asks_for_nothing(const std::string &key, const json &value) {
    const std::string text = text_of(value);
    if (key == "DISK_FULL_AFTER") {
        return text.empty() || text == "null";  // 0 bytes is a disk full from the first byte
    }
    if (text.empty() || text == "0" || text == "false" || text == "null") {
        return true;
    }
    return key == "CONCURRENCY_LEVEL" && text == "1";
}

// source -> the runs of a cell of `runs` runs whose metric `<prefix><source>` was 1, from
// the cell's mean of it; sources of no run are left out.
std::map<std::string, long> runs_per_source(const std::map<std::string, double> &metrics,
                                            const std::string &prefix, int runs) {
    std::map<std::string, long> counts;
    for (const auto &[name, mean] : metrics) {
        if (name.compare(0, prefix.size(), prefix) == 0) {
            if (const long count = std::lround(mean * runs); count > 0) {
                counts[name.substr(prefix.size())] = count;
            }
        }
    }
    return counts;
}

}  // namespace

void FaultTally::merge(const FaultTally &other) {
    for (const auto &[source, what] : other.applied) {
        applied.emplace(source, what);
        not_applied.erase(source);
    }
    for (const auto &[source, why] : other.not_applied) {
        if (applied.count(source) == 0) {
            not_applied.emplace(source, why);
        }
    }
    missed.insert(other.missed.begin(), other.missed.end());
}

std::vector<std::string> environment_faults(const presets::Preset &preset) {
    std::set<std::string> faults;
    for (const auto &[key, value] : preset.body.items()) {
        if (key != "FAILURE_MODES" && handlers().count(key) != 0 && !asks_for_nothing(key, value)) {
            faults.insert(key);
        }
    }
    for (const auto &mode : strategy_chain(preset.body.value("FAILURE_MODES", json()))) {
        if (handlers().count(mode) != 0) {
            faults.insert(mode);
        }
    }
    return {faults.begin(), faults.end()};
}

std::string built_in_handler(const std::string &key_or_mode) {
    const auto found = handlers().find(key_or_mode);
    return found == handlers().end() ? "" : found->second;
}

void add_injector_response(FaultTally &tally, const std::string &id, const json &response) {
    const auto applied = response.find("applied");
    if (applied == response.end() || !applied->is_array()) {
        tally.applied.emplace(id, "active");  // an injector that does not say is taken at its word
        return;
    }
    std::string what;
    for (const auto &item : *applied) {
        if (item.is_string() && !item.get<std::string>().empty()) {
            what += (what.empty() ? "" : ", ") + item.get<std::string>();
        }
    }
    if (!what.empty()) {
        tally.applied.emplace(id, what);
        tally.not_applied.erase(id);
        std::string missed;
        for (const auto &item : response.value("missed", json::array())) {
            if (item.is_string() && !item.get<std::string>().empty()) {
                missed.append(missed.empty() ? "" : ", ").append(item.get<std::string>());
            }
        }
        if (!missed.empty()) {
            tally.missed.emplace(id, missed);
        }
        return;
    }
    const std::string why = response.value("not_applied", std::string());
    if (tally.applied.count(id) == 0) {
        tally.not_applied.emplace(id, why.empty() ? "it applied nothing" : why);
    }
}

void add_limits(FaultTally &tally, const presets::Preset &preset, const json &result) {
    const auto enforcement = result.find("enforcement");
    const auto downgraded = result.find("downgraded");
    for (const auto &[key, limit] : limit_names()) {
        const auto asked = preset.body.find(key);
        if (asked == preset.body.end() || asks_for_nothing(key, *asked)) {
            continue;
        }
        const std::string source = "limit " + limit;
        const std::string what = source + " " + text_of(*asked);
        if (enforcement == result.end() || !enforcement->is_object()) {
            tally.applied.emplace(source, what);
            continue;
        }
        const auto how = enforcement->find(limit);
        std::string held =
            how != enforcement->end() && how->is_string() ? how->get<std::string>() : std::string();
        bool nothing = held.empty() || held.rfind("none", 0) == 0;
        if (downgraded != result.end() && downgraded->is_array()) {
            for (const auto &entry : *downgraded) {
                if (entry.is_object() && entry.value("limit", std::string()) == limit &&
                    entry.value("got", std::string()).rfind("nothing", 0) == 0) {
                    nothing = true;
                    held = entry.value("got", std::string());
                }
            }
        }
        if (nothing) {
            if (tally.applied.count(source) == 0) {
                tally.not_applied.emplace(
                    source, limit + " " + text_of(*asked) + " was not enforced (" +
                                (held.empty() ? "the executor did not say how" : held) + ")");
            }
        } else {
            std::string applied = what;
            applied.append(" (").append(held).append(")");
            tally.applied.emplace(source, std::move(applied));
            tally.not_applied.erase(source);
        }
    }
}

std::map<std::string, double> fault_metrics(const FaultTally &tally) {
    std::map<std::string, double> metrics;
    metrics["faults_applied"] = tally.applied.empty() ? 0.0 : 1.0;
    for (const auto &[source, what] : tally.applied) {
        metrics["faults_applied." + source] = 1.0;
    }
    for (const auto &[source, what] : tally.missed) {
        metrics["faults_missed." + source] = 1.0;
    }
    return metrics;
}

std::string injected_text(const std::map<std::string, double> &metrics, int runs,
                          const FaultTally &texts) {
    const std::string of_runs = "/" + std::to_string(runs) + " runs";
    std::string text;
    for (const auto &[source, count] : runs_per_source(metrics, "faults_applied.", runs)) {
        const auto what = texts.applied.find(source);
        std::string shown = source;
        if (what != texts.applied.end() && what->second != "active") {
            // "limit cpu 0.5 (cgroup_v1)" and "8 copies at once" name their source already;
            // "invalidated API_TOKEN (broken_auth)" does not.
            shown = what->second.find(source) != std::string::npos
                        ? what->second
                        : what->second + " (" + source + ")";
        }
        text.append(text.empty() ? "" : "; ")
            .append(shown)
            .append(" in ")
            .append(std::to_string(count))
            .append(of_runs);
    }
    if (text.empty()) {
        return text;
    }
    // What part of a source's faults the runs did not meet, and in how many.
    for (const auto &[source, count] : runs_per_source(metrics, "faults_missed.", runs)) {
        if (const auto why = texts.missed.find(source); why != texts.missed.end()) {
            text.append("; ")
                .append(source)
                .append(" missed in ")
                .append(std::to_string(count))
                .append(of_runs)
                .append(": ")
                .append(why->second);
        }
    }
    return text;
}

}  // namespace sbx::engine
