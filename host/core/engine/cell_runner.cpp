// Running a cell: inputs from the stub strategy, runs, metrics, ROI, forecast.
#include "engine/cell_runner.hpp"

#include <algorithm>
#include <utility>

#include "engine/cell_share.hpp"
#include "engine/fault_accounting.hpp"
#include "engine/fault_reach.hpp"
#include "engine/forecaster.hpp"
#include "engine/input_coverage.hpp"
#include "engine/input_generation.hpp"
#include "engine/outcome_counts.hpp"
#include "engine/run_seed.hpp"
#include "engine/stub_failures.hpp"
#include "plugins/answer_contract.hpp"
#include "plugins/plugin.hpp"
#include "store/forecast_records.hpp"
#include "util/errors.hpp"

namespace sbx::engine {

using nlohmann::json;

CellRunner::CellRunner(PluginSet &plugins, WorkflowRunner &runner, store::Store &store,
                       int64_t session_id)
    : plugins_(plugins), runner_(runner), store_(store), session_id_(session_id) {}

CellWork CellRunner::prepare(const config::Workflow &workflow, const presets::Preset &preset,
                             const CellOptions &options) {
    CellWork work;
    work.workflow = &workflow;
    work.preset = preset;
    work.options = options;
    work.preset_id = store_.preset_id(preset.name, preset.body);
    work.preset_text = preset.body.dump();
    work.results.resize(static_cast<size_t>(options.runs));
    auto inputs =
        generate_cell_inputs(plugins_, store_, workflow, preset, options.runs, options.seed);
    work.input_sets = std::move(inputs.input_sets);
    work.input_meta = std::move(inputs.meta);
    work.strategy = std::move(inputs.strategy);
    work.input_categories = std::move(inputs.categories);
    return work;
}

std::map<std::string, double> CellRunner::collect(
    const std::string &request, const std::string &context, std::vector<FailedCall> &failed,
    std::map<std::string, plugins::Aggregation> *aggregations,
    std::set<std::string> *collector_metrics) {
    std::map<std::string, double> metrics;
    for (auto &collector : plugins_.collectors()) {
        if (plugins_.disabled().is_disabled(collector->plugin().id())) {
            continue;
        }
        json answer;
        auto failure =
            call_optional(*collector, plugins::PluginCall::collect, request, context, [&] {
                answer = plugins::read_answer(*collector, "collect", plugins::AnswerKind::collect,
                                              collector->collect(request));
            });
        if (failure) {
            failed.push_back(std::move(*failure));
            continue;
        }
        const auto values = plugins::answer_metrics(answer);
        // The default collectors' metrics are in --json and metrics.db; the text report
        // lists those of the collectors a user added.
        const std::string &id = collector->plugin().id();
        const bool listed = id != "process_metrics" && id != "extended";
        for (const auto &[name, value] : values) {
            metrics[name] = value;
            if (listed && collector_metrics != nullptr) {
                collector_metrics->insert(name);
            }
        }
        if (aggregations != nullptr) {
            for (const auto &[name, aggregation] : plugins::answer_aggregations(answer)) {
                (*aggregations)[name] = aggregation;
            }
        }
    }
    return metrics;
}

void CellRunner::run_one(CellWork &work, int repetition) {
    const auto &workflow = *work.workflow;
    const auto &preset = work.preset;
    const std::string flag = work.options.counterfactual ? "off" : "on";
    if (plugins::cancel_requested()) {
        throw Cancelled("interrupted during " + workflow.name + " under " + preset.name +
                        "; every completed run is recorded");
    }
    const json &inputs = work.input_sets[static_cast<size_t>(repetition)];
    store::RunRecord record;
    record.started_at = store::utc_now();
    RunOutcome outcome;
    try {
        const bool shares_services = !work.options.counterfactual && !workflow.services.empty() &&
                                     workflow.service_scope == config::ServiceScope::cell;
        outcome = runner_.run(
            workflow, preset, inputs, work.options.counterfactual,
            {work.options.seed, run_seed(work.options.seed, preset.name, repetition), repetition},
            shares_services ? work.services->get(workflow, runner_.services_dir())
                            : SharedServices{});
    } catch (const plugins::PluginCallError &e) {
        if (e.status() != SBX_CANCELLED) {
            throw;
        }
        // The run in flight was stopped by the signal; it is not recorded.
        throw Cancelled("interrupted during a run of " + workflow.name + " under " + preset.name +
                        "; every completed run is recorded");
    }

    // The collectors' request is assembled from the texts at hand rather than
    // re-serialized: JSON work at plugin boundaries is most of the host's per-run cost.
    // Context first (which workflow, scenario, flag, repetition and steps), then the results.
    json step_names = json::array();
    json commands = json::array();
    for (const auto &step : outcome.steps) {
        step_names.push_back(step.name);
        commands.push_back(step.argv);
    }
    // What the stub strategies did to this run's inputs (a hostile payload's category), so
    // a collector can tell which kinds of input reached what.
    const json input_meta =
        work.input_meta.is_array() && static_cast<size_t>(repetition) < work.input_meta.size()
            ? work.input_meta[static_cast<size_t>(repetition)]
            : json();
    std::string request =
        std::string(R"({"phase":"run","passed":)") + (outcome.passed ? "true" : "false") +
        R"(,"failed_step":)" + json(outcome.failed_step).dump() + R"(,"outcome":")" +
        outcome_name(outcome.outcome) + R"(","workflow":)" + json(workflow.name).dump() +
        R"(,"scenario":)" + json(preset.name).dump() + R"(,"flag":")" + flag +
        R"(","repetition":)" + std::to_string(repetition) + R"(,"session":)" +
        std::to_string(session_id_) + R"(,"step_names":)" + step_names.dump() + R"(,"commands":)" +
        commands.dump(-1, ' ', false, json::error_handler_t::replace) + R"(,"input_meta":)" +
        input_meta.dump(-1, ' ', false, json::error_handler_t::replace) + R"(,"preset":)" +
        work.preset_text + R"(,"steps":[)";
    RunResult &result = work.results[static_cast<size_t>(repetition)];
    for (const auto &step : outcome.steps) {
        request += (&step == &outcome.steps.front() ? "" : ",") + step.result_text;
        record.steps.push_back(
            {step.name, step.passed, step.result, step.result_text, outcome_name(step.outcome)});
        if (!step.passed && outcome.harness_error.empty()) {
            result.failures.push_back(step.name + ": " + step.reason);
        }
    }
    record.session_id = session_id_;
    record.workflow = workflow.name;
    record.preset_id = work.preset_id;
    record.flag = flag;
    record.repetition = repetition;
    record.inputs = inputs;
    record.input_meta = input_meta;
    record.passed = outcome.passed;
    record.outcome = outcome_name(outcome.outcome);
    record.failed_step = outcome.failed_step;
    record.wall_s = outcome.wall_s;
    std::vector<FailedCall> failed;
    record.metrics =
        collect(request + "]}", "", failed, &result.aggregations, &result.collector_metrics);
    // Where a collector failed, said only when one did: no text is built for every run.
    for (auto &failure : failed) {
        failure.context = "workflow " + workflow.name + ", scenario " + preset.name + ", " + flag +
                          ", repetition " + std::to_string(repetition) + ", phase run, after steps";
        for (const auto &step : outcome.steps) {
            failure.context.append(&step == &outcome.steps.front() ? " " : ", ").append(step.name);
        }
    }
    record.metrics.insert(outcome.host_metrics.begin(), outcome.host_metrics.end());
    // An error of the setup is no failure of the inputs' making.
    const auto tags = stub_failure_metrics(record.input_meta, inputs,
                                           outcome.passed || !outcome.harness_error.empty());
    record.metrics.insert(tags.begin(), tags.end());
    const auto classes = outcome_metrics(outcome.outcome, record.input_meta);
    record.metrics.insert(classes.begin(), classes.end());
    if (!environment_faults(preset).empty()) {
        const auto applied = fault_metrics(outcome.faults);
        record.metrics.insert(applied.begin(), applied.end());
    }
    record.cleanup_counters = std::move(outcome.cleanup_counters);
    result.passed = outcome.passed;
    result.harness_error = std::move(outcome.harness_error);
    result.failure_detail = std::move(outcome.failure_detail);
    result.faults = std::move(outcome.faults);
    result.executions = outcome.executions;
    result.passed_executions = outcome.passed_executions;
    result.active_injectors = std::move(outcome.active_injectors);
    record.cell_share = cell_share_of(result);
    if (in_background_) {
        result.metrics = record.metrics;
        result.record_ticket = store_.record_run_later(std::move(record));
        if (!failed.empty()) {  // the failure is told with the run's id
            result.run_id = store_.written_id(std::exchange(result.record_ticket, 0));
        }
    } else {
        result.run_id = store_.record_run(record);
        result.metrics = std::move(record.metrics);
    }
    for (const auto &failure : failed) {
        disable_failed_plugin(plugins_, store_, session_id_, failure, result.run_id);
    }
}

namespace {

// A set's meta ({strategy: {slot: entry}}) with a slot entry that lists polyglot parts.
bool holds_polyglot(const nlohmann::json &set_meta) {
    if (!set_meta.is_object()) {
        return false;
    }
    for (const auto &[strategy, slots] : set_meta.items()) {
        if (!slots.is_object()) {
            continue;
        }
        for (const auto &[slot, entry] : slots.items()) {
            if (entry.is_object() && entry.contains("parts")) {
                return true;
            }
        }
    }
    return false;
}

// The names of `metrics` that are in `collector_metrics` (those of collectors other than
// the default process_metrics and extended), in name order: what the text report lists.
std::vector<std::string> listed_metrics(const std::map<std::string, double> &metrics,
                                        const std::set<std::string> &collector_metrics) {
    std::vector<std::string> listed;
    for (const auto &[name, value] : metrics) {
        if (collector_metrics.count(name) != 0) {
            listed.push_back(name);
        }
    }
    return listed;
}

// Why a cell whose preset asks for faults of the environment got none of them in any of
// its scored runs: each fault's source and why it applied nothing, or that no loaded plugin
// acted on it. "" when some fault was applied, or none was asked for.
std::string not_applied_reason(const presets::Preset &preset, const CellSummary &cell,
                               const std::set<std::string> &loaded_injectors) {
    const auto faults = environment_faults(preset);
    if (faults.empty() || cell.scored_runs() == 0 || !cell.faults.applied.empty()) {
        return "";
    }
    std::set<std::string> told;
    std::string reason;
    const auto add = [&](const std::string &text) {
        if (told.insert(text).second) {
            reason += (reason.empty() ? "" : "; ") + text;
        }
    };
    for (const auto &[source, why] : cell.faults.not_applied) {
        add(std::string(source).append(": ").append(why));
    }
    for (const auto &fault : faults) {
        const std::string handler = built_in_handler(fault);
        const bool heard = std::any_of(
            cell.faults.not_applied.begin(), cell.faults.not_applied.end(), [&](const auto &entry) {
                return entry.first == handler ||
                       (handler == "the executor" && entry.first.rfind("limit ", 0) == 0);
            });
        if (heard) {
            continue;
        }
        std::string why = fault;
        if (loaded_injectors.count(handler) != 0) {
            // Loaded, and never active for this workflow: the fault proxy with no upstream.
            why.append(": the ").append(handler).append(" injector did not act on it");
            if (handler == "fault_proxy") {
                why.append(" (the workflow declares no upstreams: or services:)");
            }
        } else {
            why.append(": no loaded plugin acted on it");
            if (!handler.empty() && handler.rfind("the ", 0) != 0) {
                why.append(" (the built-in ")
                    .append(handler)
                    .append(" injector does: list it in injectors:)");
            }
        }
        add(why);
    }
    return "none of its faults was applied: " + reason;
}

}  // namespace

std::string CellSummary::injected() const {
    return injected_text(metrics, scored_runs(), faults);
}

CellSummary CellRunner::summarize(const CellWork &work) const {
    CellSummary summary;
    summary.workflow = work.workflow->name;
    summary.preset = work.preset.name;
    summary.flag = work.options.counterfactual ? "off" : "on";
    std::vector<const std::map<std::string, double> *> run_metrics;
    std::map<std::string, plugins::Aggregation> aggregations;
    std::set<std::string> collector_metrics;
    summary.strategy = work.strategy;
    for (size_t j = 0; j < work.results.size(); ++j) {
        const auto &result = work.results[j];
        ++summary.runs;
        if (!result.harness_error.empty()) {
            // Neither a pass nor a fail: the scenario's verdict rests on the other runs.
            ++summary.errored;
            ++summary.errors[result.harness_error];
            continue;
        }
        if (!result.passed && summary.failed_run == 0) {
            summary.failed_run = result.run_id;
            summary.failure_detail = result.failure_detail;
        }
        if (!result.passed && summary.polyglot_failed_run == 0 && work.input_meta.is_array() &&
            j < work.input_meta.size() && holds_polyglot(work.input_meta[j])) {
            summary.polyglot_failed_run = result.run_id;
        }
        summary.passed += result.passed ? 1 : 0;
        summary.faults.merge(result.faults);
        summary.executions += result.executions;
        summary.passed_executions += result.passed_executions;
        run_metrics.push_back(&result.metrics);
        aggregations.insert(result.aggregations.begin(), result.aggregations.end());
        collector_metrics.insert(result.collector_metrics.begin(), result.collector_metrics.end());
        for (const auto &failure : result.failures) {
            ++summary.failures[failure];
        }
        for (const auto &id : result.active_injectors) {
            if (std::find(summary.active_injectors.begin(), summary.active_injectors.end(), id) ==
                summary.active_injectors.end()) {
                summary.active_injectors.push_back(id);
            }
        }
    }
    summary.roi = summary.executions != 0
                      ? static_cast<double>(summary.passed_executions) / summary.executions
                      : 0.0;
    summary.metrics = plugins::aggregate_runs(run_metrics, aggregations);
    // Of the cell, not a mean of its runs: how many categories its inputs tried.
    for (const auto &[name, value] :
         input_coverage_metrics(work.input_meta, work.input_categories)) {
        summary.metrics[name] = value;
    }
    summary.collector_metrics.assign(collector_metrics.begin(), collector_metrics.end());
    summary.not_applicable =
        not_applicable_reason(*work.workflow, work.preset, plugins_.settings());
    if (summary.not_applicable.empty() && !work.options.counterfactual) {
        std::set<std::string> loaded;
        for (const auto &injector : plugins_.injectors()) {
            loaded.insert(injector->plugin().id());
        }
        summary.not_applicable = not_applied_reason(work.preset, summary, loaded);
    }
    summary.robustness = !work.options.counterfactual && is_robustness_preset(work.preset);
    return summary;
}

CellSummary CellRunner::finish(CellWork &work) {
    work.services->stop();  // every run of the cell is done with them
    for (RunResult &result : work.results) {
        if (result.record_ticket != 0) {
            result.run_id = store_.written_id(std::exchange(result.record_ticket, 0));
        }
    }
    CellSummary summary = summarize(work);
    summary.metrics.insert(work.cell_metrics.begin(), work.cell_metrics.end());
    std::set<std::string> collector_metrics(summary.collector_metrics.begin(),
                                            summary.collector_metrics.end());
    const auto history = store_.roi_history(summary.workflow, summary.preset, summary.flag);
    std::vector<FailedCall> failed;
    for (const auto &[name, value] :
         collect(json{{"phase", "cell"},
                      {"session", session_id_},
                      {"workflow", summary.workflow},
                      {"scenario", summary.preset},
                      {"flag", summary.flag},
                      {"roi", summary.roi},
                      {"prev_roi", history.empty() ? json() : json(history.back())},
                      {"runs", summary.runs}}
                     .dump(),
                 "workflow " + summary.workflow + ", scenario " + summary.preset + ", " +
                     summary.flag + ", phase cell",
                 failed, nullptr, &collector_metrics)) {
        summary.metrics[name] = value;
    }
    for (const auto &failure : failed) {
        disable_failed_plugin(plugins_, store_, session_id_, failure, std::nullopt);
    }
    summary.collector_metrics = listed_metrics(summary.metrics, collector_metrics);
    summary.cell_id = store_.record_cell(
        {session_id_, summary.workflow, work.preset_id, summary.flag, summary.runs, summary.passed,
         summary.roi, summary.metrics, summary.not_applicable, summary.errored});

    // Each series of the cell, with the cell just recorded as its last point: its ROI
    // (the forecast the report shows) and every metric.
    Forecaster forecaster(plugins_, store_, session_id_);
    std::vector<store::SeriesPoint> roi_series;
    for (const auto &point : store_.roi_points(summary.workflow, summary.preset, summary.flag)) {
        roi_series.push_back({point.roi, point.finished_at});
    }
    // ROI is a share of passed executions: a forecast outside [0, 1] is a predictor defect.
    summary.forecast = forecaster.forecast(
        {cell_series_subject("roi", summary.workflow, summary.preset, summary.flag), "roi",
         std::move(roi_series), std::pair(0.0, 1.0)});
    for (auto &[metric, points] :
         store::cell_metric_series(store_, summary.workflow, summary.preset, summary.flag)) {
        if (summary.metrics.count(metric) == 0) {
            continue;  // this cell did not extend it (a collector gave no value this time)
        }
        forecaster.forecast(
            {cell_series_subject(metric, summary.workflow, summary.preset, summary.flag), metric,
             std::move(points), std::nullopt});
    }
    return summary;
}

CellSummary CellRunner::restore(const CellWork &work, const store::RecordedCell &cell) const {
    CellSummary summary = summarize(work);
    if (summary.runs != cell.runs ||
        std::any_of(work.results.begin(), work.results.end(),
                    [](const RunResult &result) { return result.run_id == 0; })) {
        // Its runs were recorded by a host older than schema 7 (no cell share): the cell's
        // own row is all there is.
        summary.runs = cell.runs;
        summary.passed = cell.passed;
        summary.roi = cell.roi;
        summary.failures.clear();
    }
    // The cell-phase collectors answered once, when the cell was recorded: their metrics are
    // the recorded ones that the runs do not explain.
    std::set<std::string> collector_metrics(summary.collector_metrics.begin(),
                                            summary.collector_metrics.end());
    for (const auto &[name, value] : cell.metrics) {
        if (summary.metrics.count(name) == 0) {
            collector_metrics.insert(name);
        }
    }
    summary.metrics = cell.metrics;
    summary.collector_metrics = listed_metrics(summary.metrics, collector_metrics);
    summary.not_applicable = cell.not_applicable;
    summary.cell_id = cell.cell_id;
    summary.forecast = cell.forecast;
    return summary;
}

CellSummary CellRunner::run(const config::Workflow &workflow, const presets::Preset &preset,
                            const CellOptions &options) {
    auto work = prepare(workflow, preset, options);
    for (int repetition = 0; repetition < options.runs; ++repetition) {
        run_one(work, repetition);
    }
    return finish(work);
}

}  // namespace sbx::engine
