// The requests of each kind's smoke calls and the checks of their answers (the fields
// docs/abi.md marks as required, the answer contracts). The realistic requests are the
// SDK's sample requests, compiled in; the fuzzed ones are drawn from fixed seeds. A call
// that fails, crashes or answers the wrong shape is one problem line naming the call.
#include "plugins/smoke_call.hpp"

#include "plugins/call_by_name.hpp"
#include "plugins/failure_advice.hpp"

#include <algorithm>
#include <functional>

#include <sbx/run_status.hpp>

#include "plugins/answer_contract.hpp"
#include "plugins/fuzzed_requests.hpp"
#include "util/temp_dir.hpp"

namespace sbx::plugins {

namespace sample_requests {
extern const char *const kExecutorRun;
extern const char *const kInjectorPrepare;
extern const char *const kStubGenerate;
extern const char *const kMetricsCollectRun;
extern const char *const kMetricsCollectCell;
extern const char *const kPredictorPredict;
}  // namespace sample_requests

namespace {

using nlohmann::json;

// Fuzzed calls per kind, seeds 1..kFuzzedCalls: few, so verify stays a quick pre-flight.
constexpr uint64_t kFuzzedCalls = 3;

// The shortened text of a JSON value for the checklist line.
std::string brief(const std::string &text) {
    constexpr size_t kMax = 100;
    return text.size() <= kMax ? text : text.substr(0, kMax) + "...";
}

// Parses an answer that must be a JSON object; empty string when it is one.
std::string object_problem(const std::string &call, const std::string &answer, json &out) {
    try {
        out = json::parse(answer);
    } catch (const json::exception &) {
        return call + " answered " + brief(answer) +
               ", which is not JSON; write one JSON object into the sink";
    }
    if (!out.is_object()) {
        return call + " answered " + brief(answer) +
               ", which is not a JSON object; answer an object (see docs/abi.md)";
    }
    return "";
}

using Check = std::function<std::string(const json &answer)>;

// Runs one call; returns "" or the problem. `label` says which request it was ("" for
// the sample, "(fuzzed, seed 2)").
std::string call_and_check(const std::string &id, const std::string &call, const std::string &label,
                           const json &request,
                           const std::function<std::string(const std::string &)> &invoke,
                           const Check &check, std::string &answer_text) {
    const std::string text = request.dump();
    const std::string named = call + (label.empty() ? "" : " " + label) + " " + brief(text);
    try {
        answer_text = invoke(text);
    } catch (const PluginCallError &e) {
        const auto which = call_from_name(call);
        if (e.failure() != CallFailure::status && which) {
            // A crash, a hang, garbage or its memory limit: a step for each, never "answer
            // with SBX_OK", which a plugin that died could not have done.
            return named + " failed: " + e.what() + "; " +
                   failure_advice(e.failure(), *which, id, "");
        }
        return named + " failed: " + e.what() + "; make " + call +
               " answer this request with SBX_OK (a request it cannot serve is still an "
               "answer, e.g. an inactive injector or an executor's \"XX\")";
    }
    json answer;
    if (auto problem = object_problem(named, answer_text, answer); !problem.empty()) {
        return problem;
    }
    const std::string problem = check ? check(answer) : "";
    return problem.empty() ? "" : named + ": " + problem;
}

// One sample request, then the fuzzed ones from `fuzz(seed)`: the first problem, or "".
std::string sample_then_fuzzed(const std::string &id, const std::string &call, const json &sample,
                               const std::function<json(uint64_t)> &fuzz,
                               const std::function<std::string(const std::string &)> &invoke,
                               const Check &check, std::string &shown) {
    if (auto problem = call_and_check(id, call, "", sample, invoke, check, shown);
        !problem.empty()) {
        return problem;
    }
    for (uint64_t seed = 1; seed <= kFuzzedCalls; ++seed) {
        std::string ignored;
        auto problem = call_and_check(id, call, "(fuzzed, seed " + std::to_string(seed) + ")",
                                      fuzz(seed), invoke, check, ignored);
        if (!problem.empty()) {
            return problem;
        }
    }
    return "";
}

// A sample request of the SDK, with its folders made in `scratch` (the samples name fixed
// paths under /tmp, which verify must not share with anyone).
json sample(const char *text, const std::filesystem::path &scratch) {
    json request = json::parse(text);
    const auto relocate = [&](json &object) {
        for (const char *key : {"workspace", "state_dir"}) {
            if (object.contains(key)) {
                // The host makes both before it calls a plugin; so does verify.
                std::filesystem::create_directories(scratch / key);
                object[key] = (scratch / key).string();
            }
        }
    };
    relocate(request);
    if (request.contains("spec")) {
        relocate(request["spec"]);
    }
    return request;
}

std::string check_executor(Instance &instance, const std::filesystem::path &scratch,
                           std::string &shown) {
    // One call: an executor's run is a real run (a container, a VM boot), not a quick probe.
    return call_and_check(
        instance.plugin().id(), "run", "", sample(sample_requests::kExecutorRun, scratch),
        [&](const std::string &r) { return instance.run(r); },
        [](const json &answer) -> std::string {
            const auto status = answer.find("status");
            if (status == answer.end() || !status->is_string() ||
                !parse_run_status(status->get_ref<const std::string &>())) {
                return "answered without a valid \"status\"; set it to one of " +
                       std::string(kRunStatusCodes);
            }
            return "";
        },
        shown);
}

std::string check_injector(Instance &instance, const std::filesystem::path &scratch,
                           std::string &shown) {
    const json request = sample(sample_requests::kInjectorPrepare, scratch);
    json state = nullptr;
    auto problem = call_and_check(
        instance.plugin().id(), "prepare", "", request,
        [&](const std::string &r) { return instance.prepare(r); },
        [&](const json &answer) -> std::string {
            if (answer.contains("active") && !answer["active"].is_boolean()) {
                return "answered a non-boolean \"active\"; write true or false";
            }
            if (answer.contains("spec") && !answer["spec"].is_object() &&
                !answer["spec"].is_null()) {
                return "answered a \"spec\" that is not an object; leave it out or answer the "
                       "whole run spec";
            }
            state = answer.value("state", json());
            return "";
        },
        shown);
    if (!problem.empty()) {
        return problem;
    }
    try {
        instance.teardown(state.dump());
    } catch (const PluginCallError &e) {
        return std::string("teardown ") + state.dump() + " failed: " + e.what() +
               "; teardown must undo what prepare did and tolerate what is already gone";
    }
    std::string swept;
    return call_and_check(
        instance.plugin().id(), "sweep", "",
        {{"state_dir", request["state_dir"]}, {"dry_run", true}},
        [&](const std::string &r) { return instance.sweep(r); },
        [](const json &answer) -> std::string {
            return answer.contains("removed") && answer["removed"].is_array()
                       ? ""
                       : "answered without a \"removed\" array; answer {\"removed\": []} "
                         "when there is nothing to remove";
        },
        swept);
}

std::string check_stub(Instance &instance, std::string &shown) {
    // Checked against the count of the request it answers.
    json asked;
    const auto invoke = [&](const std::string &r) {
        asked = json::parse(r);
        return instance.generate(r);
    };
    return sample_then_fuzzed(
        instance.plugin().id(), "generate", json::parse(sample_requests::kStubGenerate),
        fuzzed_generate, invoke,
        [&](const json &answer) -> std::string {
            const auto sets = answer.find("input_sets");
            const auto count = asked.value("count", 0);
            if (sets == answer.end() || !sets->is_array() ||
                sets->size() != static_cast<size_t>(count)) {
                return "answered without exactly " + std::to_string(count) +
                       " \"input_sets\" for \"count\": " + std::to_string(count) +
                       "; answer exactly count sets";
            }
            return "";
        },
        shown);
}

// The contract a real run holds the answer to (answer_contract), said as verify says it.
Check contract(AnswerKind kind, std::optional<std::pair<double, double>> range = std::nullopt) {
    return [kind, range](const json &answer) -> std::string {
        const std::string problem = answer_problem(kind, answer, range);
        return problem.empty() ? ""
                               : "the answer breaks its contract (" + problem +
                                     "); docs/abi.md gives each call's answer";
    };
}

std::string check_metrics(Instance &instance, std::string &shown) {
    const auto invoke = [&](const std::string &r) { return instance.collect(r); };
    // The run phase (two steps with their output, one failed), then the cell phase.
    auto problem = sample_then_fuzzed(
        instance.plugin().id(), "collect", json::parse(sample_requests::kMetricsCollectRun),
        [](uint64_t seed) { return fuzzed_collect("run", seed); }, invoke,
        contract(AnswerKind::collect), shown);
    if (!problem.empty()) {
        return problem;
    }
    std::string cell_answer;
    return sample_then_fuzzed(
        instance.plugin().id(), "collect", json::parse(sample_requests::kMetricsCollectCell),
        [](uint64_t seed) { return fuzzed_collect("cell", seed); }, invoke,
        contract(AnswerKind::collect), cell_answer);
}

std::string check_predictor(Instance &instance, std::string &shown) {
    return sample_then_fuzzed(
        instance.plugin().id(), "predict", json::parse(sample_requests::kPredictorPredict),
        fuzzed_predict, [&](const std::string &r) { return instance.predict(r); },
        contract(AnswerKind::predict, std::make_pair(0.0, 1.0)), shown);
}

}  // namespace

SmokeResult smoke_call(const Plugin &plugin) {
    // Made first, removed last: an instance may write its state while it is destroyed.
    const TempDir scratch(std::filesystem::temp_directory_path(), "sbx-verify-");
    const auto instance = plugin.create(json::object());
    std::string shown;
    std::string problem;
    std::string calls;
    const std::string fuzzed = std::to_string(kFuzzedCalls) + " fuzzed";
    const std::string &kind = plugin.kind();
    if (kind == SBX_KIND_EXECUTOR) {
        calls = "run (the sample spec)";
        problem = check_executor(*instance, scratch.path(), shown);
    } else if (kind == SBX_KIND_INJECTOR) {
        calls = "prepare, teardown, sweep (dry run)";
        problem = check_injector(*instance, scratch.path(), shown);
    } else if (kind == SBX_KIND_STUB) {
        calls = "generate (the sample, " + fuzzed + ")";
        problem = check_stub(*instance, shown);
    } else if (kind == SBX_KIND_METRICS) {
        calls = "collect (run and cell phases: the samples, " + fuzzed + " each)";
        problem = check_metrics(*instance, shown);
    } else {
        calls = "predict (the sample, " + fuzzed + ")";
        problem = check_predictor(*instance, shown);
    }
    if (!problem.empty()) {
        return {false, "smoke call " + problem};
    }
    return {true, calls + " -> " + brief(shown)};
}

}  // namespace sbx::plugins
