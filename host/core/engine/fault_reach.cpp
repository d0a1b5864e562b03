// The ways in: input slots a step passes to its target, and upstreams the fault proxy
// stands in front of.
#include "engine/fault_reach.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "config/templates.hpp"
#include "engine/input_generation.hpp"

namespace sbx::engine {

using nlohmann::json;

namespace {

// The slots whose values reach the target: named by a template in argv, stdin, an
// environment value or a file's path or content (expect.stdout_contains reaches nothing).
std::set<std::string> delivered_slots(const config::Workflow &workflow) {
    std::set<std::string> used;
    const auto add = [&](const std::string &text) {
        try {
            for (const auto &ref : config::find_input_templates(text)) {
                used.insert(ref.slot);
            }
        } catch (const std::invalid_argument &) {
            // The loader refused malformed templates already.
        }
    };
    for (const auto &step : workflow.steps) {
        std::for_each(step.run.begin(), step.run.end(), add);
        if (step.stdin_text) {
            add(*step.stdin_text);
        }
        for (const auto &[name, value] : step.env) {
            add(value);
        }
        for (const auto &[path, content] : step.files) {
            add(path);
            add(content);
        }
    }
    return used;
}

bool has_delivered_json_slot(const config::Workflow &workflow, const std::set<std::string> &used) {
    for (const auto &step : workflow.steps) {
        for (const auto &slot : step.inputs) {
            if (slot.type == "json" && used.count(slot.name) != 0) {
                return true;
            }
        }
    }
    return false;
}

// Strategies that make realistic values: not a fault of their own.
bool is_plain_strategy(const std::string &id) {
    static const std::set<std::string> plain = {"normal", "signature", "random", "faker"};
    return plain.count(id) != 0;
}

// Keys that describe or shape a fault rather than make one.
bool is_descriptive_key(const std::string &key) {
    static const std::set<std::string> keys = {
        "SCENARIO_NAME",  "FAILURE_MODES",           "THREAT_INTENSITY",
        "SECURITY_LEVEL", "UPSTREAM_REQUESTS",       "SCHEMA_MISMATCHES",
        "SCHEMA_CHECKS",  "UPSTREAM_SLICE_DELAY_MS", "SANDBOX_STUB_STRATEGY"};
    return keys.count(key) != 0;
}

// The fault proxy's keys (plugins/injectors/fault_proxy): they act on upstream traffic only.
bool is_upstream_key(const std::string &key) {
    static const std::set<std::string> keys = {"API_LATENCY_MS",     "UPSTREAM_FAILURES",
                                               "UPSTREAM_TIMEOUTS",  "CORRUPT_PAYLOAD",
                                               "UPSTREAM_BANDWIDTH", "UPSTREAM_SLICE_BYTES"};
    return keys.count(key) != 0;
}

}  // namespace

std::string not_applicable_reason(const config::Workflow &workflow, const presets::Preset &preset,
                                  const config::Settings &settings) {
    std::vector<std::string> blocked;  // why each gated fault has no way in
    bool upstream_faults = false;
    for (const auto &[key, value] : preset.body.items()) {
        if (is_descriptive_key(key)) {
            continue;
        }
        // A service is an upstream of every on-run too.
        if (!is_upstream_key(key) || !workflow.upstreams.empty() || !workflow.services.empty()) {
            return "";  // a fault on the process, its resources, its network or its upstreams
        }
        upstream_faults = true;
    }
    if (upstream_faults) {
        blocked.push_back(
            "the workflow declares no upstreams or services: for the fault proxy to fault");
    }
    std::vector<std::string> faulty;
    for (const auto &id : strategy_chain(preset.body.value("SANDBOX_STUB_STRATEGY", json()))) {
        if (!is_plain_strategy(id)) {
            faulty.push_back(id);
        }
    }
    if (!faulty.empty()) {
        const auto used = delivered_slots(workflow);
        const bool json_slot = has_delivered_json_slot(workflow, used);
        for (const auto &id : faulty) {
            std::string why;
            if (!settings.input_stubs.is_null()) {
                why = "input_stubs replace generated inputs, so the " + id +
                      " strategy never feeds a run";
            } else if (used.empty()) {
                why =
                    "no step passes an input slot to its target (through run, stdin, env or "
                    "files), so the " +
                    id + " inputs have no way in";
            } else if (id == "legacy_schema" && !json_slot) {
                why =
                    "no step passes a json input slot to its target, and legacy_schema only "
                    "drifts JSON objects";
            }
            if (why.empty()) {
                return "";
            }
            blocked.push_back(why);
        }
    }
    std::string reason;
    for (const auto &why : blocked) {
        reason += (reason.empty() ? "" : "; ") + why;
    }
    return reason;
}

}  // namespace sbx::engine
