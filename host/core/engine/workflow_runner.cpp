// One run of a workflow: spec building, injection, execution, judgement.
#include "engine/workflow_runner.hpp"

#include <unistd.h>

#include <spdlog/spdlog.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <set>
#include <thread>

#include <sbx/utf8.hpp>
#include "engine/injection_scope.hpp"
#include "engine/run_outcome_class.hpp"
#include "engine/run_seed.hpp"
#include "engine/spec_raw_fields.hpp"
#include "engine/template.hpp"
#include "plugins/plugin.hpp"
#include "store/cleanup_counters.hpp"
#include "util/errors.hpp"
#include "util/units.hpp"

namespace sbx::engine {

using nlohmann::json;

namespace {

// argv, environment values and file names are C strings: a NUL byte would cut them short
// (or make the executor refuse the run). Their closest legal form drops the NULs; the
// step's record says where that happened. stdin and file contents carry NULs intact.
std::string legal_c_string(std::string text, const std::string &where,
                           std::vector<std::string> &notes) {
    const auto removed = static_cast<size_t>(std::count(text.begin(), text.end(), '\0'));
    if (removed != 0) {
        text.erase(std::remove(text.begin(), text.end(), '\0'), text.end());
        notes.push_back(where + ": " + std::to_string(removed) +
                        " NUL byte(s) removed (a C string cannot carry them)");
    }
    return text;
}

// The workflow's own fields of a spec: `upstreams:` for the injectors (fault_proxy puts a
// proxy on each `listen`), `filesystem:` and `binds:` for the executor; absent when not
// written.
json with_workflow_fields(json spec, const config::Workflow &workflow) {
    if (!workflow.filesystem.empty()) {
        spec["filesystem"] = workflow.filesystem;
    }
    if (!workflow.binds.empty()) {
        spec["binds"] = workflow.binds;
    }
    if (!workflow.upstreams.empty()) {
        json upstreams = json::array();
        for (const auto &upstream : workflow.upstreams) {
            upstreams.push_back({{"name", upstream.name},
                                 {"listen", upstream.listen},
                                 {"target", upstream.target}});
        }
        spec["upstreams"] = std::move(upstreams);
    }
    return spec;
}

// True when the preset shapes or needs the network (latency, loss, bandwidth, upstream
// faults): an executor that isolates the network by default (docker: none) gives such
// runs one.
bool needs_network(const presets::Preset &preset) {
    static const char *const keys[] = {
        "NETWORK_LATENCY_MS", "NETWORK_JITTER_MS", "PACKET_LOSS",   "PACKET_DUPLICATION",
        "BANDWIDTH_LIMIT",    "MIN_BANDWIDTH",     "MAX_BANDWIDTH", "API_LATENCY_MS",
        "UPSTREAM_FAILURES",  "UPSTREAM_REQUESTS"};
    for (const char *key : keys) {
        if (preset.body.contains(key)) {
            return true;
        }
    }
    return false;
}

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

bool is_list_slot(const config::Step &step, const std::string &name) {
    return std::any_of(step.inputs.begin(), step.inputs.end(), [&](const config::InputSlot &slot) {
        return slot.name == name && slot.type == "list";
    });
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

// A JSON number that is a whole number within int's range (3, -1, also 3.0).
bool is_int(const json &value) {
    constexpr auto kMin = std::numeric_limits<int>::min();
    constexpr auto kMax = std::numeric_limits<int>::max();
    if (value.is_number_unsigned()) {
        return value.get<uint64_t>() <= static_cast<uint64_t>(kMax);
    }
    if (value.is_number_integer()) {
        const auto number = value.get<int64_t>();
        return number >= kMin && number <= kMax;
    }
    if (value.is_number_float()) {
        const double number = value.get<double>();
        return number >= kMin && number <= kMax && std::trunc(number) == number;
    }
    return false;
}

}  // namespace

bool meets_expectation(const config::Expectation &expect, const json &result, std::string &reason) {
    const std::string status = result.value("status", "XX");
    if (status != expect.status) {
        reason = "status " + status + ", expected " + expect.status;
        if (result.contains("error") && !result["error"].get<std::string>().empty()) {
            reason += " (" + result["error"].get<std::string>() + ")";
        }
        return false;
    }
    if (expect.exit_code && result.value("exit_code", -1) != *expect.exit_code) {
        reason = "exit code " + std::to_string(result.value("exit_code", -1)) + ", expected " +
                 std::to_string(*expect.exit_code);
        return false;
    }
    if (expect.stdout_contains &&
        result.value("stdout", "").find(*expect.stdout_contains) == std::string::npos) {
        reason = "stdout lacks '" + *expect.stdout_contains + "'";
        return false;
    }
    return true;
}

void check_executor_result(const json &result, const std::string &executor) {
    const auto fail = [&](const std::string &why) {
        throw EnvironmentError("executor '" + executor + "' returned a malformed result (" + why +
                               "); see docs/abi.md for the result fields");
    };
    if (!result.is_object()) {
        fail("not a JSON object");
    }
    static const std::set<std::string> kStatuses = {"OK", "RE", "SG", "TO", "OOM", "XX"};
    if (!result.contains("status") || !result["status"].is_string() ||
        kStatuses.count(result["status"].get<std::string>()) == 0) {
        fail("'status' must be one of OK, RE, SG, TO, OOM, XX");
    }
    // Read as int later (expectations, outcome classes, the store): a number outside int's
    // range there is undefined behaviour (UBSan found it under tests/fuzz/fuzz_plugin_answers).
    for (const char *key : {"exit_code", "signal"}) {
        if (result.contains(key) && !is_int(result[key])) {
            fail(std::string("'") + key + "' must be a number, a whole one in int's range");
        }
    }
    for (const char *key :
         {"wall_s", "cpu_user_s", "cpu_sys_s", "max_rss_kb", "stdout_bytes", "stderr_bytes"}) {
        if (result.contains(key) && !result[key].is_number()) {
            fail(std::string("'") + key + "' must be a number");
        }
    }
    for (const char *key : {"stdout", "stderr", "error"}) {
        if (result.contains(key) && !result[key].is_string()) {
            fail(std::string("'") + key + "' must be a string");
        }
    }
}

WorkflowRunner::WorkflowRunner(PluginSet &plugins, const config::Settings &settings,
                               std::filesystem::path invocation_dir, std::string state_dir)
    : plugins_(plugins),
      settings_(settings),
      invocation_dir_(std::move(invocation_dir)),
      state_dir_(std::move(state_dir)),
      workspaces_(settings.keep_workspaces) {}

json WorkflowRunner::build_spec(const config::Step &step, const presets::Preset &preset,
                                const presets::Limits &limits, const json &inputs,
                                const std::filesystem::path &workspace, bool counterfactual,
                                uint64_t seed, std::vector<std::string> &notes) {
    // Expanded text that is not valid UTF-8 travels as the `raw` field's bytes.
    RawFields raw;
    json argv = json::array();
    if (counterfactual) {
        argv.push_back("true");  // the environment alone: same executor, no workflow
    } else {
        // An item may give no argv item (an absent slot) or several (a list slot spread).
        const auto is_list = [&](const std::string &name) { return is_list_slot(step, name); };
        for (const auto &word : step.run) {
            auto args = expand_run_item(word, inputs, is_list);
            if (argv.empty() && args.empty()) {
                break;  // no program, and the next argument must not become one
            }
            for (auto &arg : args) {
                const std::string index = std::to_string(argv.size());
                argv.push_back(raw.text(
                    legal_c_string(std::move(arg), "argv[" + index + "]", notes), "argv", index));
            }
        }
        // A relative program path means "relative to where sandbox-runner was started";
        // the target itself runs inside its workspace. No program (argv empty): run() fails
        // the step, see missing_program.
        const std::string program = argv.empty() ? "" : argv[0].get<std::string>();
        if (program.find('/') != std::string::npos && program.front() != '/') {
            argv[0] = (invocation_dir_ / program).lexically_normal().string();
        }
    }
    json env = json::object();
    for (const auto &[key, value] : presets::passthrough_environment(preset)) {
        env[key] = value;
    }
    for (const auto &[key, value] : step.env) {
        env[key] = raw.text(legal_c_string(expand_template(value, inputs), "env." + key, notes),
                            "env", key);
    }
    json files = json::object();
    if (!counterfactual) {
        for (const auto &[path, content] : step.files) {
            const std::string name = raw.path_text(
                legal_c_string(expand_template(path, inputs), "file name " + path, notes));
            files[name] = raw.text(expand_template(content, inputs), "files", name);
        }
    }
    int64_t timeout_ms = limits.timeout_ms;
    if (step.timeout_s) {
        const int64_t step_ms = timeout_milliseconds(*step.timeout_s);
        timeout_ms = timeout_ms == 0 ? step_ms : std::min(timeout_ms, step_ms);
    }
    presets::Limits effective = limits;
    effective.timeout_ms = timeout_ms;
    json limit_fields = presets::limit_fields(effective);
    const auto set_if = [&](const char *key, auto value) {
        if (value > 0) {
            limit_fields[key] = value;
        }
    };
    // GPU_LIMIT (a whole number of GPUs) for executors that can give devices (docker).
    if (const auto gpus = preset.body.find("GPU_LIMIT"); gpus != preset.body.end()) {
        try {
            const std::string text = gpus->is_string() ? gpus->get<std::string>() : gpus->dump();
            set_if("gpus", static_cast<int64_t>(std::stoll(text)));
        } catch (const std::exception &) {
            notes.push_back("GPU_LIMIT is not a whole number of GPUs; ignored");
        }
    }
    json spec{{"run_id", std::to_string(getpid()) + "-" + std::to_string(++run_counter_)},
              {"seed", as_spec_seed(seed)},
              {"argv", argv},
              {"env", env},
              {"stdin", step.stdin_text && !counterfactual
                            ? raw.text(expand_template(*step.stdin_text, inputs), "stdin")
                            : std::string()},
              {"files", files},
              {"workspace", workspace.string()},
              {"keep_workspace", settings_.keep_workspaces},
              {"limits", limit_fields},
              // Where executors, like injectors, record what a crashed host would leave behind.
              {"state_dir", state_dir_},
              {"needs_network", needs_network(preset)}};
    // The container executors' choice of image: CONTAINER_IMAGE, else by OS_TYPE.
    for (const auto &[key, field] :
         {std::pair<const char *, const char *>{"CONTAINER_IMAGE", "image"},
          {"OS_TYPE", "os_type"}}) {
        if (const auto found = preset.body.find(key); found != preset.body.end()) {
            spec[field] = found->is_string() ? found->get<std::string>() : found->dump();
        }
    }
    // The VM executors' guest: the preset's VM_SETTINGS object (or JSON text of one).
    if (const auto vm = preset.body.find("VM_SETTINGS"); vm != preset.body.end()) {
        spec["vm_settings"] =
            vm->is_string() ? json::parse(vm->get<std::string>(), nullptr, false) : *vm;
    }
    raw.add_to(spec);
    return spec;
}

namespace {

// CONCURRENCY_LEVEL of a preset (validated as a whole number when the preset was read);
// 1 when absent. Capped: each copy is a process and an executor instance.
size_t concurrency_level(const presets::Preset &preset) {
    constexpr size_t kMaxCopies = 256;
    const auto found = preset.body.find("CONCURRENCY_LEVEL");
    if (found == preset.body.end()) {
        return 1;
    }
    const std::string text = found->is_string() ? found->get<std::string>() : found->dump();
    size_t level = 1;
    try {
        level = static_cast<size_t>(std::stoull(text));
    } catch (const std::exception &) {
        level = 1;
    }
    return std::clamp<size_t>(level, 1, kMaxCopies);
}

// Executes `spec_text` on `executor`; an executor's refusal of this one run (a hostile
// input made an impossible spec, say) becomes an XX result, so the matrix goes on.
StepOutcome execute(plugins::Instance &executor, const std::string &spec_text,
                    const std::string &step_name) {
    StepOutcome outcome{step_name, false, "", json::object(), "", OutcomeClass::accepted};
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

// A copy's verdict and class.
struct Judgement {
    bool passed = false;
    OutcomeClass outcome = OutcomeClass::accepted;
};

// The counterfactual's no-op passes when it ran: its class says nothing about the target.
Judgement judge_counterfactual(const json &result) {
    const bool ran = result.value("status", "XX") == "OK";
    return {ran, ran ? OutcomeClass::accepted : OutcomeClass::failed};
}

// The expectation decides, except under a robustness scenario with `scoring: robust`,
// where a clean rejection passes and a sanitizer's report fails.
Judgement judge(const config::Step &step, const config::Expectation &expect, bool robustness,
                StepOutcome &copy) {
    const bool met = meets_expectation(expect, copy.result, copy.reason);
    Judgement judged{met, classify_step(step, copy.result, met)};
    if (!robustness) {
        return judged;
    }
    if (step.scoring == config::Scoring::strict) {
        if (judged.outcome == OutcomeClass::rejected) {
            copy.reason += " (a declared rejection; the step asks for scoring: strict)";
        }
        return judged;
    }
    if (judged.outcome == OutcomeClass::rejected) {
        judged.passed = true;
        copy.reason.clear();
    } else if (judged.outcome == OutcomeClass::crashed && met) {
        judged.passed = false;
        copy.reason = "a sanitizer reported an error on stderr";
    }
    return judged;
}

}  // namespace

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

std::vector<json> WorkflowRunner::step_specs(const config::Workflow &workflow,
                                             const presets::Preset &preset, const json &inputs,
                                             bool counterfactual,
                                             const std::filesystem::path &workspace) {
    const auto limits = presets::resolve_limits(preset);
    std::vector<json> specs;
    for (const auto &step : workflow.steps) {
        std::vector<std::string> notes;
        specs.push_back(with_workflow_fields(
            build_spec(step, preset, limits, inputs, workspace, counterfactual, 0, notes),
            workflow));
    }
    return specs;
}

RunOutcome WorkflowRunner::run(const config::Workflow &workflow, const presets::Preset &preset,
                               const json &inputs, bool counterfactual, const RunSeeds &seeds) {
    const auto limits = presets::resolve_limits(preset);
    const auto started = std::chrono::steady_clock::now();
    const auto workspace = workspaces_.lease();
    const std::string preset_text = preset.body.dump();
    // Copies share the workspace: they are concurrent users of the same state, which is
    // what a concurrency spike is about.
    std::vector<bool> alive(concurrency_level(preset), true);
    std::vector<bool> failed_copy(alive.size(), false);
    const bool robustness = !counterfactual && is_robustness_preset(preset);
    RunOutcome outcome;
    for (size_t index = 0; index < workflow.steps.size(); ++index) {
        const auto &step = workflow.steps[index];
        std::vector<std::string> notes;
        std::vector<StepOutcome> copies;
        json reports;
        json spec = with_workflow_fields(
            build_spec(step, preset, limits, inputs, workspace.path(), counterfactual,
                       mix_seed(seeds.run, "step", index), notes),
            workflow);
        // Every live copy of the step fails with `error`, as an executor's refusal would.
        const auto fail_live_copies = [&](const std::string &error) {
            copies.assign(alive.size(), StepOutcome{});
            for (size_t i = 0; i < alive.size(); ++i) {
                if (alive[i]) {
                    copies[i].result = {{"status", "XX"}, {"error", error}};
                }
            }
        };
        if (const std::string why = missing_program(step, spec); !why.empty()) {
            fail_live_copies(why);
        } else {
            try {
                InjectionScope injection(plugins_.injectors(), preset_text, std::move(spec),
                                         state_dir_, seeds.command);
                for (const auto &id : injection.active()) {
                    if (std::find(outcome.active_injectors.begin(), outcome.active_injectors.end(),
                                  id) == outcome.active_injectors.end()) {
                        outcome.active_injectors.push_back(id);
                    }
                }
                for (const auto &[name, value] : injection.metrics()) {
                    auto &kept = outcome.host_metrics[name];
                    kept = std::max(kept, value);
                }
                if (!injection.reports().empty()) {
                    reports = injection.reports();
                }
                copies =
                    run_copies(workflow, preset, injection.spec(), injection.spec_text(), alive);
            } catch (const plugins::PluginCallError &e) {
                if (e.status() == SBX_CANCELLED) {
                    throw;
                }
                // An injector could not set up this run (a port in use, say): the earlier
                // injectors are torn down already; every live copy of the step fails with why.
                fail_live_copies(e.what());
            }
        }
        config::Expectation expect = step.expect;
        if (expect.stdout_contains) {
            // Compared with the result's stdout, which is text (invalid UTF-8 replaced).
            expect.stdout_contains =
                utf8_stand_in(expand_template(*expect.stdout_contains, inputs));
        }
        json copy_results = json::array();
        // The step passes when every copy that ran it passed; copies that had failed an
        // earlier step did not run it.
        bool step_passed = true;
        OutcomeClass step_worst = OutcomeClass::accepted;
        for (size_t i = 0; i < copies.size(); ++i) {
            auto &copy = copies[i];
            if (!alive[i]) {
                continue;
            }
            add_cleanup_report(copy.result, plugins_.executor_for(workflow).plugin().id(),
                               outcome.cleanup_counters);
            copy.name = step.name;
            const auto judged = counterfactual ? judge_counterfactual(copy.result)
                                               : judge(step, expect, robustness, copy);
            copy.passed = judged.passed;
            copy.outcome = judged.outcome;
            step_worst = worse(step_worst, judged.outcome);
            outcome.outcome = worse(outcome.outcome, judged.outcome);
            // A clean rejection ends the copy's run: what follows needed the refused input.
            alive[i] = judged.passed && judged.outcome != OutcomeClass::rejected;
            failed_copy[i] = !judged.passed;
            step_passed = step_passed && copy.passed;
            if (copies.size() > 1) {
                copy_results.push_back({{"copy", i},
                                        {"status", copy.result.value("status", "XX")},
                                        {"exit_code", copy.result.value("exit_code", -1)},
                                        {"outcome", outcome_name(copy.outcome)},
                                        {"passed", copy.passed}});
            }
        }
        // The record keeps copy 0's result, or the first failed copy's (the one that says
        // what went wrong), with every copy's verdict beside it.
        size_t shown = copies.size();
        for (size_t i = 0; i < copies.size(); ++i) {
            if (copies[i].result.empty()) {
                continue;  // a copy that had already failed at an earlier step
            }
            if (shown == copies.size() || !copies[i].passed) {
                shown = i;
            }
            if (!copies[i].passed) {
                break;
            }
        }
        StepOutcome step_outcome = std::move(copies[shown]);
        step_outcome.passed = step_passed;
        step_outcome.outcome = step_worst;
        if (!notes.empty()) {
            step_outcome.result["host_notes"] = notes;
            step_outcome.result_text.clear();
        }
        if (!copy_results.empty()) {
            step_outcome.result["copies"] = copy_results;
            step_outcome.result_text.clear();
        }
        if (!reports.is_null()) {
            // The run's record says how each fault was made (which mechanism, which draw).
            step_outcome.result["injections"] = std::move(reports);
            step_outcome.result_text.clear();
        }
        if (step_outcome.result_text.empty()) {
            step_outcome.result_text =
                step_outcome.result.dump(-1, ' ', false, json::error_handler_t::replace);
        }
        outcome.steps.push_back(step_outcome);
        if (!step_outcome.passed && outcome.failed_step.empty()) {
            outcome.failed_step = step.name;
        }
        if (std::none_of(alive.begin(), alive.end(), [](bool a) { return a; })) {
            break;
        }
    }
    outcome.executions = static_cast<int>(alive.size());
    outcome.passed_executions =
        static_cast<int>(std::count(failed_copy.begin(), failed_copy.end(), false));
    outcome.passed = outcome.failed_step.empty();
    outcome.wall_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (alive.size() > 1) {
        const double copies = static_cast<double>(alive.size());
        outcome.host_metrics["concurrency_level"] = copies;
        outcome.host_metrics["concurrency_error_rate"] =
            (copies - outcome.passed_executions) / copies;
        outcome.host_metrics["concurrency_throughput"] =
            outcome.wall_s > 0 ? copies / outcome.wall_s : 0.0;
    }
    return outcome;
}

}  // namespace sbx::engine
