// Running a cell: inputs from the stub strategy, runs, metrics, ROI, forecast.
#include "engine/cell_runner.hpp"

#include "plugins/plugin.hpp"
#include "util/errors.hpp"

namespace sbx::engine {

using nlohmann::json;

namespace {

// The union of every step's input slots (first declaration of a name wins).
json slots_of(const config::Workflow &workflow) {
    json slots = json::object();
    for (const auto &step : workflow.steps) {
        for (const auto &slot : step.inputs) {
            if (slots.contains(slot.name)) {
                continue;
            }
            json described{{"type", slot.type}, {"required", slot.required}};
            if (!slot.example.is_null()) {
                described["example"] = slot.example;
            }
            if (!slot.default_value.is_null()) {
                described["default"] = slot.default_value;
            }
            if (slot.min) {
                described["min"] = *slot.min;
            }
            if (slot.max) {
                described["max"] = *slot.max;
            }
            if (!slot.values.empty()) {
                described["values"] = slot.values;
            }
            slots[slot.name] = described;
        }
    }
    return slots;
}

}  // namespace

CellRunner::CellRunner(PluginSet &plugins, WorkflowRunner &runner, store::Store &store,
                       int64_t session_id)
    : plugins_(plugins), runner_(runner), store_(store), session_id_(session_id) {}

json CellRunner::input_sets(const config::Workflow &workflow, const presets::Preset &preset,
                            const CellOptions &options) {
    // A preset chooses its inputs (hostile, misuse, ...); otherwise the configured default.
    const std::string strategy = preset.body.value("SANDBOX_STUB_STRATEGY", json()).is_string()
                                     ? preset.body["SANDBOX_STUB_STRATEGY"].get<std::string>()
                                     : "";
    auto &stub = strategy.empty()
                     ? plugins_.stub(plugins_.default_stub(), "stub_strategy")
                     : plugins_.stub(strategy, preset.origin + ": SANDBOX_STUB_STRATEGY");
    const json request{{"slots", slots_of(workflow)},
                       {"count", options.runs},
                       {"seed", options.seed},
                       {"preset", preset.body}};
    json sets = json::parse(stub.generate(request.dump())).value("input_sets", json::array());
    if (!sets.is_array() || sets.size() != static_cast<size_t>(options.runs)) {
        throw EnvironmentError("stub strategy '" + stub.plugin().id() + "' returned " +
                               std::to_string(sets.is_array() ? sets.size() : 0) +
                               " input sets, expected " + std::to_string(options.runs));
    }
    return sets;
}

std::map<std::string, double> CellRunner::collect(const std::string &request) {
    std::map<std::string, double> metrics;
    for (auto &collector : plugins_.collectors()) {
        const json answer = json::parse(collector->collect(request));
        for (const auto &[name, value] : answer.items()) {
            if (value.is_number()) {
                metrics[name] = value.get<double>();
            }
        }
    }
    return metrics;
}

json CellRunner::forecast(const std::string &subject, const std::vector<double> &series) {
    json answer = json::parse(plugins_.predictor().predict(json{{"series", series}}.dump()));
    const auto number = [&](const char *key) -> std::optional<double> {
        const auto &value = answer.value(key, json());
        return value.is_number() ? std::optional<double>(value.get<double>()) : std::nullopt;
    };
    const auto &method = answer.value("method", json());
    store_.record_prediction(
        {session_id_, subject,
         method.is_string() ? method.get<std::string>() : plugins_.predictor().plugin().id(),
         number("value"), number("lower"), number("upper"), static_cast<int>(series.size())});
    return answer;
}

CellSummary CellRunner::run(const config::Workflow &workflow, const presets::Preset &preset,
                            const CellOptions &options) {
    CellSummary summary;
    summary.workflow = workflow.name;
    summary.preset = preset.name;
    summary.flag = options.counterfactual ? "off" : "on";
    const int64_t preset_id = store_.preset_id(preset.name, preset.body);
    const json sets = input_sets(workflow, preset, options);
    const std::string preset_text = preset.body.dump();

    std::map<std::string, double> metric_sums;
    for (int repetition = 0; repetition < options.runs; ++repetition) {
        if (plugins::cancel_requested()) {
            throw Cancelled("interrupted after " + std::to_string(summary.runs) + " runs of " +
                            workflow.name + " under " + preset.name +
                            "; every completed run is recorded");
        }
        const json &inputs = sets[static_cast<size_t>(repetition)];
        store::RunRecord record;
        record.started_at = store::utc_now();
        RunOutcome outcome;
        try {
            outcome = runner_.run(workflow, preset, inputs, options.counterfactual);
        } catch (const plugins::PluginCallError &e) {
            if (e.status() != SBX_CANCELLED) {
                throw;
            }
            // The run in flight was stopped by the signal; it is not recorded.
            throw Cancelled("interrupted during run " + std::to_string(summary.runs + 1) + " of " +
                            workflow.name + " under " + preset.name + "; the " +
                            std::to_string(summary.runs) +
                            " completed run(s) of this preset are recorded");
        }

        // The collectors' request is assembled from the texts at hand rather than
        // re-serialized: JSON work at plugin boundaries is most of the host's per-run cost.
        std::string request = std::string(R"({"phase":"run","passed":)") +
                              (outcome.passed ? "true" : "false") + R"(,"preset":)" + preset_text +
                              R"(,"steps":[)";
        for (const auto &step : outcome.steps) {
            request += (&step == &outcome.steps.front() ? "" : ",") + step.result_text;
            record.steps.push_back({step.name, step.passed, step.result, step.result_text});
            if (!step.passed) {
                ++summary.failures[step.name + ": " + step.reason];
            }
        }
        record.session_id = session_id_;
        record.workflow = workflow.name;
        record.preset_id = preset_id;
        record.flag = summary.flag;
        record.repetition = repetition;
        record.inputs = inputs;
        record.passed = outcome.passed;
        record.failed_step = outcome.failed_step;
        record.wall_s = outcome.wall_s;
        record.metrics = collect(request + "]}");
        store_.record_run(record);

        ++summary.runs;
        summary.passed += outcome.passed ? 1 : 0;
        for (const auto &[name, value] : record.metrics) {
            metric_sums[name] += value;
        }
        for (const auto &id : outcome.active_injectors) {
            if (std::find(summary.active_injectors.begin(), summary.active_injectors.end(), id) ==
                summary.active_injectors.end()) {
                summary.active_injectors.push_back(id);
            }
        }
    }
    summary.roi = summary.runs ? static_cast<double>(summary.passed) / summary.runs : 0.0;
    for (const auto &[name, sum] : metric_sums) {
        summary.metrics[name] = sum / summary.runs;
    }
    const auto history = store_.roi_history(workflow.name, preset.name, summary.flag);
    for (const auto &[name, value] : collect(json{
             {"phase", "cell"},
             {"roi", summary.roi},
             {"prev_roi", history.empty() ? json() : json(history.back())},
             {"runs", summary.runs}}.dump())) {
        summary.metrics[name] = value;
    }
    summary.cell_id =
        store_.record_cell({session_id_, workflow.name, preset_id, summary.flag, summary.runs,
                            summary.passed, summary.roi, summary.metrics});

    auto series = history;
    series.push_back(summary.roi);
    summary.forecast =
        forecast("roi:" + workflow.name + ":" + preset.name + ":" + summary.flag, series);
    return summary;
}

}  // namespace sbx::engine
