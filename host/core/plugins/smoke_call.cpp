// Sample requests per kind and the checks of their answers (the fields docs/abi.md marks
// as required). A call that fails or answers the wrong shape is one problem line.
#include "plugins/smoke_call.hpp"

#include <algorithm>
#include <functional>

#include <sbx/run_status.hpp>

#include "plugins/answer_contract.hpp"
#include "util/temp_dir.hpp"

namespace sbx::plugins {
namespace {

using nlohmann::json;

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

// Runs one call; returns "" or the problem.
std::string call_and_check(const std::string &call, const json &request,
                           const std::function<std::string(const std::string &)> &invoke,
                           const Check &check, std::string &answer_text) {
    try {
        answer_text = invoke(request.dump());
    } catch (const PluginCallError &e) {
        return call + " " + request.dump() + " failed: " + e.what() + "; make " + call +
               " answer this sample request with SBX_OK (a request it cannot serve is "
               "still an answer, e.g. an inactive injector or an executor's \"XX\")";
    }
    json answer;
    if (auto problem = object_problem(call, answer_text, answer); !problem.empty()) {
        return problem;
    }
    return check ? check(answer) : "";
}

json sample_spec() {
    return {{"run_id", "verify-1"},  {"seed", 1},
            {"argv", {"/bin/true"}}, {"env", json::object()},
            {"stdin", ""},           {"files", json::object()},
            {"workspace", ""},       {"limits", {{"timeout_ms", 10000}}}};
}

// A preset that asks for no failure mode: every injector should stay inactive.
json sample_preset() {
    return {{"SCENARIO_NAME", "verify"}};
}

std::string check_executor(Instance &instance, std::string &shown) {
    const auto spec = sample_spec();
    return call_and_check(
        "run", spec, [&](const std::string &r) { return instance.run(r); },
        [](const json &answer) -> std::string {
            const auto status = answer.find("status");
            if (status == answer.end() || !status->is_string() ||
                !parse_run_status(status->get_ref<const std::string &>())) {
                return "run answered without a valid \"status\"; set it to one of " +
                       std::string(kRunStatusCodes);
            }
            return "";
        },
        shown);
}

std::string check_injector(Instance &instance, std::string &shown) {
    const TempDir state_dir(std::filesystem::temp_directory_path(), "sbx-verify-");
    const json request{{"preset", sample_preset()},
                       {"spec", sample_spec()},
                       {"run_id", "verify-1"},
                       {"state_dir", state_dir.path().string()},
                       {"seed", 1}};
    json state = nullptr;
    auto problem = call_and_check(
        "prepare", request, [&](const std::string &r) { return instance.prepare(r); },
        [&](const json &answer) -> std::string {
            if (answer.contains("active") && !answer["active"].is_boolean()) {
                return "prepare answered a non-boolean \"active\"; write true or false";
            }
            if (answer.contains("spec") && !answer["spec"].is_object() &&
                !answer["spec"].is_null()) {
                return "prepare answered a \"spec\" that is not an object; leave it out or "
                       "answer the whole run spec";
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
        "sweep", {{"state_dir", state_dir.path().string()}, {"dry_run", true}},
        [&](const std::string &r) { return instance.sweep(r); },
        [](const json &answer) -> std::string {
            return answer.contains("removed") && answer["removed"].is_array()
                       ? ""
                       : "sweep answered without a \"removed\" array; answer {\"removed\": []} "
                         "when there is nothing to remove";
        },
        swept);
}

std::string check_stub(Instance &instance, std::string &shown) {
    const json request{
        {"slots", {{"name", {{"type", "string"}, {"required", true}, {"example", "Ada"}}}}},
        {"count", 2},
        {"seed", 1},
        {"preset", sample_preset()}};
    return call_and_check(
        "generate", request, [&](const std::string &r) { return instance.generate(r); },
        [](const json &answer) -> std::string {
            const auto sets = answer.find("input_sets");
            if (sets == answer.end() || !sets->is_array() || sets->size() != 2) {
                return "generate answered without exactly 2 \"input_sets\" for \"count\": 2; "
                       "answer exactly count sets";
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
    json result = {{"status", "OK"}, {"exit_code", 0}, {"wall_s", 0.01}, {"max_rss_kb", 1024}};
    const json run_request{
        {"phase", "run"},       {"passed", true},    {"workflow", "verify"},
        {"scenario", "verify"}, {"flag", "on"},      {"repetition", 0},
        {"step_names", {"s1"}}, {"steps", {result}}, {"preset", sample_preset()}};
    auto problem = call_and_check(
        "collect", run_request, [&](const std::string &r) { return instance.collect(r); },
        contract(AnswerKind::collect), shown);
    if (!problem.empty()) {
        return problem;
    }
    std::string cell_answer;
    return call_and_check(
        "collect",
        {{"phase", "cell"},
         {"workflow", "verify"},
         {"scenario", "verify"},
         {"flag", "on"},
         {"roi", 1.0},
         {"prev_roi", nullptr},
         {"runs", 1}},
        [&](const std::string &r) { return instance.collect(r); }, contract(AnswerKind::collect),
        cell_answer);
}

std::string check_predictor(Instance &instance, std::string &shown) {
    return call_and_check(
        "predict",
        {{"series", {0.5, 0.6, 0.7, 0.65, 0.7}},
         {"subject", "roi:verify:normal:on"},
         {"metric", "roi"}},
        [&](const std::string &r) { return instance.predict(r); },
        contract(AnswerKind::predict, std::make_pair(0.0, 1.0)), shown);
}

}  // namespace

SmokeResult smoke_call(const Plugin &plugin) {
    const auto instance = plugin.create(json::object());
    std::string shown;
    std::string problem;
    std::string call;
    const std::string &kind = plugin.kind();
    if (kind == SBX_KIND_EXECUTOR) {
        call = "run /bin/true";
        problem = check_executor(*instance, shown);
    } else if (kind == SBX_KIND_INJECTOR) {
        call = "prepare, teardown, sweep (dry run)";
        problem = check_injector(*instance, shown);
    } else if (kind == SBX_KIND_STUB) {
        call = "generate 2 sets";
        problem = check_stub(*instance, shown);
    } else if (kind == SBX_KIND_METRICS) {
        call = "collect (run and cell phases)";
        problem = check_metrics(*instance, shown);
    } else {
        call = "predict [0.5,0.6,0.7,0.65,0.7]";
        problem = check_predictor(*instance, shown);
    }
    if (!problem.empty()) {
        return {false, "smoke call " + problem};
    }
    return {true, call + " -> " + brief(shown)};
}

}  // namespace sbx::plugins
