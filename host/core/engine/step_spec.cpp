// A step's run spec: its argv, environment, stdin and files expanded from the input set, the
// preset's limits, seed and executor choices, and the workflow's own fields.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/run_seed.hpp"
#include "engine/spec_raw_fields.hpp"
#include "engine/template.hpp"
#include "engine/workflow_runner.hpp"
#include "util/number_parse.hpp"
#include "util/units.hpp"

namespace sbx::engine {

using nlohmann::json;

namespace {

// The number in a spec's run_id: one count for the whole process, so the ids of every
// worker's calls differ (plugins key their per-call state and folders by them).
uint64_t next_run_number() {
    static std::atomic<uint64_t> count{0};
    return ++count;
}

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

// SANDBOX_UPSTREAM_<NAME>: the name upper-cased, as fault_proxy names it.
std::string upstream_variable(const std::string &name) {
    std::string variable = "SANDBOX_UPSTREAM_";
    for (const char c : name) {
        variable += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    return variable;
}

// The workflow's own fields of a spec: `upstreams:` for the injectors (fault_proxy puts a
// proxy on each `listen`), `filesystem:`, `binds:` and `safe_mode:` for the executor (the
// last for the network injector too); absent when not written.
json with_workflow_fields(json spec, const config::Workflow &workflow) {
    if (!workflow.filesystem.empty()) {
        spec["filesystem"] = workflow.filesystem;
    }
    if (!workflow.binds.empty()) {
        spec["binds"] = workflow.binds;
    }
    // The network injector gives such a run a namespace with loopback only, and an
    // executor refuses a safe_mode spec it would run in the host's network.
    if (workflow.safe_mode) {
        spec["safe_mode"] = true;
    }
    if (!workflow.upstreams.empty()) {
        json upstreams = json::array();
        for (const auto &upstream : workflow.upstreams) {
            upstreams.push_back({{"name", upstream.name},
                                 {"listen", upstream.listen},
                                 {"target", upstream.target}});
        }
        spec["upstreams"] = std::move(upstreams);
        // The target finds each upstream by its variable whatever the injectors: the upstream
        // itself here, the fault proxy's address once fault_proxy stands between. A step's
        // own env wins.
        json &env = spec["env"];
        for (const auto &upstream : workflow.upstreams) {
            const std::string variable = upstream_variable(upstream.name);
            if (!env.contains(variable)) {
                env[variable] = upstream.target;
            }
        }
    }
    return spec;
}

// True when the preset shapes the network (latency, loss, bandwidth) or faults an upstream
// of the workflow: an executor that isolates the network by default (docker: none) gives
// such runs one. The upstream faults (fault_proxy's keys) act only on a workflow with
// upstreams or services; for any other the run is the same as without them, and so is
// its container (a pooled one is reused as for every other scenario).
bool needs_network(const presets::Preset &preset, const config::Workflow &workflow) {
    static const char *const shaping[] = {
        "NETWORK_LATENCY_MS", "NETWORK_JITTER_MS", "PACKET_LOSS",  "PACKET_DUPLICATION",
        "BANDWIDTH_LIMIT",    "MIN_BANDWIDTH",     "MAX_BANDWIDTH"};
    static const char *const upstream_faults[] = {"API_LATENCY_MS", "UPSTREAM_FAILURES",
                                                  "UPSTREAM_REQUESTS"};
    for (const char *key : shaping) {
        if (preset.body.contains(key)) {
            return true;
        }
    }
    if (workflow.upstreams.empty() && workflow.services.empty()) {
        return false;
    }
    for (const char *key : upstream_faults) {
        if (preset.body.contains(key)) {
            return true;
        }
    }
    return false;
}

bool is_list_slot(const config::Step &step, const std::string &name) {
    return std::any_of(step.inputs.begin(), step.inputs.end(), [&](const config::InputSlot &slot) {
        return slot.name == name && slot.type == "list";
    });
}

}  // namespace

json shown_places(const config::Settings &settings, const std::filesystem::path &invocation_dir) {
    std::vector<std::filesystem::path> places{invocation_dir};
    std::error_code error;
    if (std::filesystem::is_regular_file(settings.source, error)) {
        places.push_back(std::filesystem::absolute(settings.source, error).parent_path());
    }
    for (const std::string &folder : settings.plugin_dirs) {
        places.push_back(invocation_dir / folder);  // an absolute folder stays as it is
    }
    json show = json::array();
    for (const auto &place : places) {
        const std::string path = place.lexically_normal().string();
        if (std::filesystem::is_directory(path, error) && path != "/" &&
            std::find(show.begin(), show.end(), path) == show.end()) {
            show.push_back(path);
        }
    }
    return show;
}

json WorkflowRunner::build_spec(const config::Step &step, const config::Workflow &workflow,
                                const presets::Preset &preset, const presets::Limits &limits,
                                const json &inputs, const std::filesystem::path &workspace,
                                bool counterfactual, uint64_t seed,
                                std::vector<std::string> &notes) {
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
        const std::string text = gpus->is_string() ? gpus->get<std::string>() : gpus->dump();
        // A double, so that YAML's 2.0 counts as the whole number it is.
        const auto count = util::parse_double(text);
        if (count && std::floor(*count) == *count && std::fabs(*count) < 9e18) {
            set_if("gpus", static_cast<int64_t>(*count));
        } else {
            notes.push_back("GPU_LIMIT is not a whole number of GPUs; ignored");
        }
    }
    json spec{{"run_id", std::to_string(getpid()) + "-" + std::to_string(next_run_number())},
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
              {"needs_network", needs_network(preset, workflow)}};
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
    // `minimal` shows the workflow's binds and nothing else of the host.
    if (!counterfactual && workflow.filesystem != "minimal") {
        spec["show"] = shown_places_;
    }
    raw.add_to(spec);
    return with_workflow_fields(std::move(spec), workflow);
}

std::vector<json> WorkflowRunner::step_specs(const config::Workflow &workflow,
                                             const presets::Preset &preset, const json &inputs,
                                             bool counterfactual,
                                             const std::filesystem::path &workspace) {
    const auto limits = presets::resolve_limits(preset);
    std::vector<json> specs;
    for (const auto &step : workflow.steps) {
        std::vector<std::string> notes;
        specs.push_back(build_spec(step, workflow, preset, limits, inputs, workspace,
                                   counterfactual, 0, notes));
    }
    return specs;
}

}  // namespace sbx::engine
