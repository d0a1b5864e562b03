// One run of a workflow: each step's spec through the injectors and the executor, once per
// copy, then judged; the spec is step_spec.cpp's, the judgement step_judgement.cpp's.
#include "engine/workflow_runner.hpp"

#include <spdlog/spdlog.h>
#include <sbx/utf8.hpp>

#include <algorithm>
#include <chrono>
#include <thread>

#include "engine/cancelled.hpp"
#include "engine/failure_detail.hpp"
#include "engine/injection_scope.hpp"
#include "engine/run_outcome_class.hpp"
#include "engine/run_seed.hpp"
#include "engine/run_services.hpp"
#include "engine/template.hpp"
#include "plugins/plugin.hpp"
#include "store/cleanup_counters.hpp"
#include "util/number_parse.hpp"

namespace sbx::engine {

using nlohmann::json;

namespace {

// Folds the result's optional `cleanup` object (counter deltas since the executor's last
// report) into `into`; what is not a counter is skipped with a warning, never fatal.
void add_cleanup_report(const json &result, const std::string &executor,
                        std::map<std::string, double> &into) {
    const auto found = result.find("cleanup");
    if (found == result.end()) {
        return;
    }
    std::vector<std::string> ignored;
    store::add_reported_counters(*found, into, ignored);
    for (const auto &why : ignored) {
        spdlog::warn("executor '{}': result field cleanup: ignored {}", executor, why);
    }
}

// Why a step whose program item expanded to nothing cannot run; empty when it has one.
std::string missing_program(const config::Step &step, const json &spec) {
    if (!spec["argv"].empty()) {
        return "";
    }
    return "the program item " + json(step.run.front()).dump() + " of step '" + step.name +
           "' gave no argv item (the input set lacks the slot, or it is an empty list), so "
           "there is no program to run";
}

// CONCURRENCY_LEVEL of a preset (validated as a whole number when the preset was read);
// 1 when absent. Capped: each copy is a process and an executor instance.
size_t concurrency_level(const presets::Preset &preset) {
    constexpr size_t kMaxCopies = 256;
    const auto found = preset.body.find("CONCURRENCY_LEVEL");
    if (found == preset.body.end()) {
        return 1;
    }
    const std::string text = found->is_string() ? found->get<std::string>() : found->dump();
    // Read as the check read it: a whole number may be written 8.0 or 1e1.
    const auto level = util::parse_double(text, util::LeadingPlus::refused);
    if (!level) {
        return 1;
    }
    return static_cast<size_t>(std::clamp(*level, 1.0, static_cast<double>(kMaxCopies)));
}

// Whether the executor says the sandbox, not the target, failed this copy: an XX result
// with `sandbox_fault: true`.
bool is_sandbox_fault(const json &result) {
    const auto fault = result.find("sandbox_fault");
    const auto status = result.find("status");
    return fault != result.end() && *fault == true && status != result.end() && *status == "XX";
}

// Whether a copy of the step ended in a status of the target's own (RE, SG, TO, OOM): the
// run's verdict may rest on it, whatever the sandbox did to other copies, and a rerun could
// make a flaky failure disappear.
bool program_failed(const std::vector<StepOutcome> &copies) {
    return std::any_of(copies.begin(), copies.end(), [](const StepOutcome &copy) {
        const auto status = copy.result.find("status");
        return status != copy.result.end() && *status != "OK" && *status != "XX";
    });
}

// The error of the first copy whose executor result says the sandbox failed; "" when none
// does.
std::string sandbox_fault_of(const std::vector<StepOutcome> &copies) {
    for (const auto &copy : copies) {
        if (is_sandbox_fault(copy.result)) {
            const auto error = copy.result.find("error");
            return error != copy.result.end() && error->is_string() && !error->empty()
                       ? error->get<std::string>()
                       : "the executor gave no error";
        }
    }
    return "";
}

// A sandbox that failed is often one under a passing strain (a busy engine): a moment's
// pause, longer on each rerun, unless the host is cancelling.
void wait_before_rerun(int reruns) {
    const auto until =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(500) * (1 << reruns);
    while (std::chrono::steady_clock::now() < until && !plugins::cancel_requested()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

// Executes `spec_text` on `executor`; an executor's refusal of this one run (a hostile
// input made an impossible spec, say) becomes an XX result, so the matrix goes on.
StepOutcome execute(plugins::Instance &executor, const std::string &spec_text,
                    const std::string &step_name) {
    StepOutcome outcome;
    outcome.name = step_name;
    outcome.result = json::object();
    try {
        outcome.result_text = executor.run(spec_text);
        outcome.result = json::parse(outcome.result_text);
        check_executor_result(outcome.result, executor.plugin().id());
    } catch (const plugins::PluginCallError &e) {
        if (e.status() == SBX_CANCELLED) {
            throw;
        }
        outcome.result = {{"status", "XX"}, {"error", e.what()}};
        outcome.result_text.clear();
    }
    return outcome;
}

}  // namespace

WorkflowRunner::WorkflowRunner(PluginSet &plugins, const config::Settings &settings,
                               std::filesystem::path invocation_dir, std::string state_dir)
    : plugins_(plugins),
      settings_(settings),
      invocation_dir_(std::move(invocation_dir)),
      state_dir_(std::move(state_dir)),
      workspaces_(settings.keep_workspaces),
      shown_places_(shown_places(settings, invocation_dir_)) {}

std::vector<StepOutcome> WorkflowRunner::run_copies(const config::Workflow &workflow,
                                                    const presets::Preset &preset, const json &spec,
                                                    const std::string &spec_text,
                                                    const std::vector<bool> &alive) {
    const size_t copies = alive.size();
    std::vector<StepOutcome> outcomes(copies);
    if (copies == 1) {
        // The common case: the text the injectors left, not a fresh serialization.
        outcomes[0] = execute(plugins_.executor_for(workflow, &preset), spec_text, "");
        return outcomes;
    }
    // Instances are created here, on this thread: PluginSet is not thread-safe.
    std::vector<plugins::Instance *> executors(copies);
    std::vector<std::string> texts(copies);
    for (size_t i = 0; i < copies; ++i) {
        executors[i] = &plugins_.executor_copy(workflow, &preset, i);
        json copy = spec;
        copy["run_id"] = spec.value("run_id", std::string()) + "-c" + std::to_string(i);
        // Each copy draws its own faults, the same ones on every rerun.
        copy["seed"] = as_spec_seed(mix_seed(spec.value("seed", uint64_t{0}), "copy", i));
        texts[i] = copy.dump();
    }
    std::vector<std::exception_ptr> errors(copies);
    std::vector<std::thread> threads;
    for (size_t i = 1; i < copies; ++i) {
        if (alive[i]) {
            threads.emplace_back([&, i] {
                try {
                    outcomes[i] = execute(*executors[i], texts[i], "");
                } catch (...) {
                    errors[i] = std::current_exception();
                }
            });
        }
    }
    try {
        if (alive[0]) {
            outcomes[0] = execute(*executors[0], texts[0], "");
        }
    } catch (...) {
        errors[0] = std::current_exception();
    }
    for (auto &thread : threads) {
        thread.join();
    }
    for (const auto &error : errors) {
        if (error) {
            std::rethrow_exception(error);
        }
    }
    return outcomes;
}

namespace {

// Where each copy of a run stands after the steps so far.
struct CopyStates {
    explicit CopyStates(size_t copies) : alive(copies, true), failed(copies, false) {}

    std::vector<bool> alive;   // runs the next step: passed every step so far, none rejected
    std::vector<bool> failed;  // failed a step

    [[nodiscard]] bool any_alive() const {
        return std::any_of(alive.begin(), alive.end(), [](bool a) { return a; });
    }
};

// A step judged over its copies: the copy whose result the record keeps, with the step's
// verdict and worst class, and every copy's verdict when there are several.
struct JudgedStep {
    StepOutcome shown;
    json copy_results = json::array();
};

// Judges each live copy's result (copies that had failed an earlier step did not run this
// one), and updates the copies' states and the run's worst class and cleanup counters. The
// record keeps copy 0's result, or the first failed copy's (the one that says what went
// wrong), with every copy's verdict beside it.
JudgedStep judge_copies(const config::Step &step, const config::Expectation &expect,
                        bool counterfactual, bool robustness, const std::string &executor,
                        std::vector<StepOutcome> &copies, CopyStates &states, RunOutcome &outcome) {
    JudgedStep judged_step;
    // The step passes when every copy that ran it passed.
    bool step_passed = true;
    OutcomeClass step_worst = OutcomeClass::accepted;
    size_t shown = copies.size();
    for (size_t i = 0; i < copies.size(); ++i) {
        auto &copy = copies[i];
        if (!states.alive[i]) {
            continue;
        }
        add_cleanup_report(copy.result, executor, outcome.cleanup_counters);
        copy.name = step.name;
        const auto judged = counterfactual
                                ? judge_counterfactual(copy.result)
                                : judge(step, expect, robustness, copy.result, copy.reason);
        copy.passed = judged.passed;
        copy.outcome = judged.outcome;
        step_worst = worse(step_worst, judged.outcome);
        outcome.outcome = worse(outcome.outcome, judged.outcome);
        // A clean rejection ends the copy's run: what follows needed the refused input.
        states.alive[i] = judged.passed && judged.outcome != OutcomeClass::rejected;
        states.failed[i] = !judged.passed;
        step_passed = step_passed && copy.passed;
        if (copies.size() > 1) {
            judged_step.copy_results.push_back({{"copy", i},
                                                {"status", copy.result.value("status", "XX")},
                                                {"exit_code", copy.result.value("exit_code", -1)},
                                                {"outcome", outcome_name(copy.outcome)},
                                                {"passed", copy.passed}});
        }
        if (shown == copies.size() || (copies[shown].passed && !copy.passed)) {
            shown = i;
        }
    }
    judged_step.shown = std::move(copies[shown]);
    judged_step.shown.passed = step_passed;
    judged_step.shown.outcome = step_worst;
    return judged_step;
}

// Adds what the host knows about the step to its recorded result (NUL bytes it removed,
// every copy's verdict, how each fault was made); the result text is then written anew,
// otherwise it stays exactly as the executor wrote it.
void annotate(StepOutcome &step, const std::vector<std::string> &notes, json copy_results,
              json injections) {
    const bool annotated = !notes.empty() || !copy_results.empty() || !injections.is_null();
    if (!notes.empty()) {
        step.result["host_notes"] = notes;
    }
    if (!copy_results.empty()) {
        step.result["copies"] = std::move(copy_results);
    }
    if (!injections.is_null()) {
        step.result["injections"] = std::move(injections);
    }
    if (annotated || step.result_text.empty()) {
        step.result_text = step.result.dump(-1, ' ', false, json::error_handler_t::replace);
    }
}

// The run's totals once its steps are done: executions, verdict, wall time, and the
// concurrency metrics when copies ran side by side.
void finish(RunOutcome &outcome, const CopyStates &states,
            std::chrono::steady_clock::time_point started) {
    outcome.executions = static_cast<int>(states.alive.size());
    outcome.passed_executions =
        static_cast<int>(std::count(states.failed.begin(), states.failed.end(), false));
    outcome.passed = outcome.failed_step.empty();
    outcome.wall_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (states.alive.size() > 1) {
        const double copies = static_cast<double>(states.alive.size());
        outcome.host_metrics["concurrency_level"] = copies;
        outcome.host_metrics["concurrency_error_rate"] =
            (copies - outcome.passed_executions) / copies;
        outcome.host_metrics["concurrency_throughput"] =
            outcome.wall_s > 0 ? copies / outcome.wall_s : 0.0;
    }
}

// Why the failed run failed, in one line (engine/failure_detail.hpp), and whether the failure
// was the setup's: a step the executor or an injector could not run (an XX result), unless
// the target ended some copy itself, or the failure counts as the system's (the inputs left the
// step without a program, a service of the workflow died).
// An error the executor wrote itself is named after it, as plugin failures are.
void note_failure(RunOutcome &outcome, bool target_ended_itself, const std::string &executor) {
    for (const auto &step : outcome.steps) {
        if (step.passed) {
            continue;
        }
        outcome.failure_detail = failure_detail(step.name, step.result, step.reason);
        const bool not_run = step.result.value("status", std::string()) == "XX" &&
                             !step.result.value("counts_as_failure", false);
        if (not_run && !target_ended_itself) {
            const std::string error = step.result.value("error", std::string());
            const bool named =
                step.result.value("made_by_host", false) || error.rfind("plugin '", 0) == 0;
            if (named) {
                outcome.harness_error = error;
            } else {
                outcome.harness_error = "executor '" + executor + "'";
                if (error.empty()) {
                    outcome.harness_error.append(" could not run step '")
                        .append(step.name)
                        .append("'");
                } else {
                    outcome.harness_error.append(": ").append(error);
                }
            }
        }
        return;
    }
}

}  // namespace

WorkflowRunner::StepExecution WorkflowRunner::execute_step(
    const config::Workflow &workflow, const config::Step &step, const presets::Preset &preset,
    const std::string &preset_text, json spec, const std::vector<bool> &alive,
    const RunSeeds &seeds, const std::string &cannot_run, bool cannot_run_is_setup,
    RunOutcome &outcome) {
    StepExecution execution;
    // Every live copy of the step fails with `error`, as an executor's refusal would.
    // `sandbox_fault`: the setup failed, not the target; the run is tried again and, if that
    // keeps failing, is an error of the run rather than a verdict on the target.
    const auto fail_live_copies = [&](const std::string &error, bool sandbox_fault) {
        execution.copies.assign(alive.size(), StepOutcome{});
        for (size_t i = 0; i < alive.size(); ++i) {
            if (alive[i]) {
                execution.copies[i].result = {
                    {"status", "XX"}, {"error", error}, {"made_by_host", true}};
                if (sandbox_fault) {
                    execution.copies[i].result["sandbox_fault"] = true;
                } else {
                    execution.copies[i].result["counts_as_failure"] = true;
                }
            }
        }
    };
    // A service that did not start (or become ready) is the setup's failure; one that died
    // during an earlier step (`cannot_run` then says so) is the system's, as is a program
    // item the inputs left empty.
    if (!cannot_run.empty()) {
        fail_live_copies(cannot_run, cannot_run_is_setup);
        return execution;
    }
    if (const std::string why = missing_program(step, spec); !why.empty()) {
        fail_live_copies(why, false);
        return execution;
    }
    try {
        InjectionScope injection(plugins_.injectors(), plugins_.idle_injectors(preset_text),
                                 preset_text, std::move(spec), state_dir_, seeds.command,
                                 seeds.repetition);
        for (const auto &id : injection.active()) {
            if (std::find(outcome.active_injectors.begin(), outcome.active_injectors.end(), id) ==
                outcome.active_injectors.end()) {
                outcome.active_injectors.push_back(id);
            }
        }
        for (const auto &[name, value] : injection.metrics()) {
            auto &kept = outcome.host_metrics[name];
            kept = std::max(kept, value);
        }
        if (!injection.reports().empty()) {
            execution.reports = injection.reports();
        }
        execution.copies =
            run_copies(workflow, preset, injection.spec(), injection.spec_text(), alive);
        injection.tally_after_run();
        outcome.faults.merge(injection.tally());
        // The limits as the executor held them, from the first copy that ran.
        for (size_t i = 0; i < alive.size(); ++i) {
            if (alive[i]) {
                FaultTally limits;
                add_limits(limits, preset, execution.copies[i].result);
                outcome.faults.merge(limits);
                break;
            }
        }
    } catch (const plugins::PluginCallError &e) {
        if (e.status() == SBX_CANCELLED) {
            throw;
        }
        // An injector could not set up this run (a port in use, say): the earlier injectors
        // are torn down already; every live copy of the step fails with why, as the setup's.
        fail_live_copies(e.what(), true);
    }
    return execution;
}

RunOutcome WorkflowRunner::run(const config::Workflow &workflow, const presets::Preset &preset,
                               const json &inputs, bool counterfactual, const RunSeeds &seeds,
                               const SharedServices &shared) {
    // What executors cleaned up during discarded tries: their reports are deltas, reported
    // once, so they must reach the store with the try that is kept.
    store::CleanupCounters discarded_cleanup;
    for (int reruns = 0;; ++reruns) {
        RunOutcome outcome = run_once(workflow, preset, inputs, counterfactual, seeds, shared);
        if (reruns > 0) {
            outcome.host_metrics["sandbox_reruns"] = reruns;
            store::CleanupCounters kept = discarded_cleanup;
            for (const auto &[name, value] : outcome.cleanup_counters) {
                store::add_counter(kept, name, value);
            }
            outcome.cleanup_counters = std::move(kept);
        }
        const std::string subject = "a run of " + workflow.name + " under " + preset.name +
                                    (counterfactual ? " (off)" : " (on)");
        if (outcome.sandbox_fault.empty()) {
            return outcome;
        }
        if (reruns >= settings_.sandbox_fault_reruns) {
            spdlog::warn(
                "{}: the sandbox failed again after {} rerun(s) ({}); the run is "
                "recorded as an error, not as a verdict on the program: see the "
                "plugin's diagnostics, or raise sandbox_fault_reruns",
                subject, reruns, outcome.sandbox_fault);
            return outcome;
        }
        // A run the sandbox failed is not a result: interrupted before its rerun, it is not
        // recorded (--recover makes it), as a run stopped midway is not.
        const auto stop_if_cancelled = [&] {
            if (plugins::cancel_requested()) {
                throw Cancelled("interrupted before " + subject +
                                " was run again; every completed run is recorded");
            }
        };
        stop_if_cancelled();
        spdlog::info("{}: the sandbox failed ({}); running it again ({} of {})", subject,
                     outcome.sandbox_fault, reruns + 1, settings_.sandbox_fault_reruns);
        discarded_cleanup = std::move(outcome.cleanup_counters);
        wait_before_rerun(reruns);
        stop_if_cancelled();
    }
}

RunOutcome WorkflowRunner::run_once(const config::Workflow &workflow, const presets::Preset &preset,
                                    const json &inputs, bool counterfactual, const RunSeeds &seeds,
                                    const SharedServices &shared) {
    const auto limits = presets::resolve_limits(preset);
    const auto started = std::chrono::steady_clock::now();
    const auto workspace = workspaces_.lease();
    const std::string preset_text = preset.body.dump();
    const std::string executor = plugins_.executor_for(workflow).plugin().id();
    // Copies share the workspace: they are concurrent users of the same state, which is
    // what a concurrency spike is about.
    CopyStates states(concurrency_level(preset));
    const bool robustness = !counterfactual && is_robustness_preset(preset);
    RunOutcome outcome;
    RunServices services(workflow, counterfactual, shared, services_dir());
    bool target_ended_itself = false;  // some copy's step ended RE, SG, TO or OOM
    for (size_t index = 0; index < workflow.steps.size() && states.any_alive(); ++index) {
        const auto &step = workflow.steps[index];
        std::vector<std::string> notes;
        json spec = build_spec(step, workflow, preset, limits, inputs, workspace.path(),
                               counterfactual, mix_seed(seeds.run, "step", index), notes);
        json argv = spec["argv"];
        services.add_to(spec);
        const std::string down = services.down();
        StepExecution execution =
            execute_step(workflow, step, preset, preset_text, std::move(spec), states.alive, seeds,
                         down.empty() ? services.failure() : down, down.empty(), outcome);
        if (down.empty()) {
            services.fail_if_died(step.name, execution.copies, states.alive);
        }
        target_ended_itself = target_ended_itself || program_failed(execution.copies);
        if (outcome.sandbox_fault.empty()) {
            outcome.sandbox_fault = sandbox_fault_of(execution.copies);
        }
        config::Expectation expect = step.expect;
        if (expect.stdout_contains) {
            // Compared with the result's stdout, which is text (invalid UTF-8 replaced).
            expect.stdout_contains =
                utf8_stand_in(expand_template(*expect.stdout_contains, inputs));
        }
        JudgedStep judged = judge_copies(step, expect, counterfactual, robustness, executor,
                                         execution.copies, states, outcome);
        annotate(judged.shown, notes, std::move(judged.copy_results), std::move(execution.reports));
        if (!judged.shown.passed && outcome.failed_step.empty()) {
            outcome.failed_step = step.name;
        }
        judged.shown.argv = std::move(argv);
        outcome.steps.push_back(std::move(judged.shown));
    }
    services.record_into(outcome);
    finish(outcome, states, started);
    if (states.alive.size() > 1) {
        outcome.faults.applied.emplace("copies",
                                       std::to_string(states.alive.size()) + " copies at once");
    }
    if (target_ended_itself) {
        outcome.sandbox_fault.clear();  // a verdict of the target's own stands: no rerun
    }
    if (!outcome.passed) {
        note_failure(outcome, target_ended_itself, executor);
    }
    return outcome;
}

}  // namespace sbx::engine
