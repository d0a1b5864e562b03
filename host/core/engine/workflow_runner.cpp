// One run of a workflow: spec building, injection, execution, judgement.
#include "engine/workflow_runner.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <set>

#include "engine/injection_scope.hpp"
#include "engine/template.hpp"
#include "plugins/plugin.hpp"
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
    for (const char *key : {"exit_code", "signal", "wall_s", "cpu_user_s", "cpu_sys_s",
                            "max_rss_kb", "stdout_bytes", "stderr_bytes"}) {
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
                                std::vector<std::string> &notes) {
    json argv = json::array();
    if (counterfactual) {
        argv.push_back("true");  // the environment alone: same executor, no workflow
    } else {
        for (const auto &word : step.run) {
            argv.push_back(legal_c_string(expand_template(word, inputs),
                                          "argv[" + std::to_string(argv.size()) + "]", notes));
        }
        // A relative program path means "relative to where sandbox-runner was started";
        // the target itself runs inside its workspace.
        const std::string program = argv[0].get<std::string>();
        if (program.find('/') != std::string::npos && program.front() != '/') {
            argv[0] = (invocation_dir_ / program).lexically_normal().string();
        }
    }
    json env = json::object();
    for (const auto &[key, value] : presets::passthrough_environment(preset)) {
        env[key] = value;
    }
    for (const auto &[key, value] : step.env) {
        env[key] = legal_c_string(expand_template(value, inputs), "env." + key, notes);
    }
    json files = json::object();
    if (!counterfactual) {
        for (const auto &[path, content] : step.files) {
            files[legal_c_string(expand_template(path, inputs), "file name " + path, notes)] =
                expand_template(content, inputs);
        }
    }
    int64_t timeout_ms = limits.timeout_ms;
    if (step.timeout_s) {
        const int64_t step_ms = timeout_milliseconds(*step.timeout_s);
        timeout_ms = timeout_ms == 0 ? step_ms : std::min(timeout_ms, step_ms);
    }
    // Only the limits the preset or step sets: an absent limit lets the executor apply
    // its own configured default.
    json limit_fields = json::object();
    const auto set_if = [&](const char *key, auto value) {
        if (value > 0) {
            limit_fields[key] = value;
        }
    };
    set_if("timeout_ms", timeout_ms);
    set_if("cpu_time_s", limits.cpu_time_s);
    set_if("memory_bytes", limits.memory_bytes);
    set_if("disk_bytes", limits.disk_bytes);
    set_if("pids", limits.pids);
    return json{
        {"run_id", std::to_string(getpid()) + "-" + std::to_string(++run_counter_)},
        {"argv", argv},
        {"env", env},
        {"stdin", step.stdin_text && !counterfactual ? expand_template(*step.stdin_text, inputs)
                                                     : std::string()},
        {"files", files},
        {"workspace", workspace.string()},
        {"keep_workspace", settings_.keep_workspaces},
        {"limits", limit_fields}};
}

RunOutcome WorkflowRunner::run(const config::Workflow &workflow, const presets::Preset &preset,
                               const json &inputs, bool counterfactual) {
    const auto limits = presets::resolve_limits(preset);
    const auto started = std::chrono::steady_clock::now();
    const auto workspace = workspaces_.lease();
    const std::string preset_text = preset.body.dump();
    RunOutcome outcome;
    for (const auto &step : workflow.steps) {
        StepOutcome step_outcome{step.name, false, "", json::object(), ""};
        std::vector<std::string> notes;
        {
            InjectionScope injection(
                plugins_.injectors(), preset_text,
                build_spec(step, preset, limits, inputs, workspace.path(), counterfactual, notes),
                state_dir_);
            for (const auto &id : injection.active()) {
                if (std::find(outcome.active_injectors.begin(), outcome.active_injectors.end(),
                              id) == outcome.active_injectors.end()) {
                    outcome.active_injectors.push_back(id);
                }
            }
            auto &executor = plugins_.executor_for(workflow);
            try {
                step_outcome.result_text = executor.run(injection.spec_text());
                step_outcome.result = json::parse(step_outcome.result_text);
                check_executor_result(step_outcome.result, executor.plugin().id());
            } catch (const plugins::PluginCallError &e) {
                if (e.status() == SBX_CANCELLED) {
                    throw;
                }
                // The executor refused this run (a hostile input made an impossible spec,
                // say): the step fails with the reason, the matrix goes on.
                step_outcome.result = {{"status", "XX"}, {"error", e.what()}};
                step_outcome.result_text.clear();
            }
            if (!notes.empty()) {
                step_outcome.result["host_notes"] = notes;
                step_outcome.result_text.clear();
            }
            if (step_outcome.result_text.empty()) {
                step_outcome.result_text =
                    step_outcome.result.dump(-1, ' ', false, json::error_handler_t::replace);
            }
        }
        config::Expectation expect = step.expect;
        if (expect.stdout_contains) {
            expect.stdout_contains = expand_template(*expect.stdout_contains, inputs);
        }
        step_outcome.passed =
            counterfactual ? step_outcome.result.value("status", "XX") == "OK"
                           : meets_expectation(expect, step_outcome.result, step_outcome.reason);
        outcome.steps.push_back(step_outcome);
        if (!step_outcome.passed) {
            outcome.failed_step = step.name;
            break;
        }
    }
    outcome.passed = outcome.failed_step.empty();
    outcome.wall_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return outcome;
}

}  // namespace sbx::engine
