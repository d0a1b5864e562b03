// The `broken_auth` injector: the credentials a run declares are invalidated for it. Active
// when the preset sets BROKEN_AUTH or lists broken_auth in FAILURE_MODES. A credential is
// an environment variable of the spec whose name matches one of `variables` (default
// *TOKEN*, *SECRET*, *PASSWORD*, *API_KEY*, AUTH*), or a file listed in `files`: its value
// is replaced by a wrong one of the same shape (garble.hpp).
//
// Variables and files the spec carries are changed in the spec, which ends with the step.
// Files changed in place (absolute paths, or workspace paths of a shared workspace) are
// saved first and restored by teardown, or by sweep() after a crashed host (credential_files).
#include <sbx/plugin.hpp>

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "credential_files.hpp"
#include "garble.hpp"
#include "support/preset_activation.hpp"
#include "support/probe_request.hpp"
#include "support/run_seed.hpp"

namespace sbx::broken_auth {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

std::vector<std::string> default_variables() {
    return {"*TOKEN*", "*SECRET*", "*PASSWORD*", "*API_KEY*", "AUTH*"};
}

std::string joined(const std::vector<std::string> &items) {
    std::string text;
    for (const auto &item : items) {
        text += (text.empty() ? "" : ", ") + item;
    }
    return text.empty() ? "nothing" : text;
}

// What prepare did, for the log and the response.
struct Changes {
    std::vector<std::string> variables;  // names garbled in the spec's env
    std::vector<std::string> files;      // "PATH (spec)" or "PATH (in place)"
    std::vector<std::string> unchanged;  // "NAME: why"
    std::vector<std::string> held;       // paths held in place, released by teardown
};

class BrokenAuth final : public Injector {
  public:
    static constexpr About about{
        "broken_auth",
        "Broken authentication",
        "1.0.0",
        "Invalidates the run's credentials when the preset sets BROKEN_AUTH or lists "
        "broken_auth in FAILURE_MODES: matching environment variables and listed files get a "
        "wrong value of the same shape; files changed in place are restored afterwards.",
        R"json({"type":"object","additionalProperties":false,"properties":{
          "variables":{"type":"array","items":{"type":"string","minLength":1},
            "default":["*TOKEN*","*SECRET*","*PASSWORD*","*API_KEY*","AUTH*"],
            "description":"shell patterns (case-insensitive) of the spec's environment variables that hold credentials"},
          "files":{"type":"array","items":{"type":"string","minLength":1},"default":[],
            "description":"credential files: a relative path is in the run's workspace (changed in the spec's files, or in place in a shared workspace), an absolute one on the host (changed in place, restored after the run)"},
          "seed":{"type":"integer","minimum":0,"default":0,
            "description":"mixed with each run's identity: the same seed and run give the same wrong values"}}})json",
        "sandbox-runner",
        "https://example.invalid/sandbox-runner",
        "Apache-2.0"};

    explicit BrokenAuth(const std::string &config_json) {
        const json config = json::parse(config_json.empty() ? "{}" : config_json);
        variables_ = config.value("variables", default_variables());
        files_ = config.value("files", std::vector<std::string>());
        seed_ = config.value("seed", std::uint64_t{0});
        for (const auto &file : files_) {
            if (file.empty() || file.find('\0') != std::string::npos) {
                throw Error(SBX_INVALID, "files: '" + file + "' is not a path");
            }
        }
    }

    std::string prepare(const std::string &request_json) override {
        const json request = json::parse(request_json);
        const json preset = request.value("preset", json::object());
        if (!support::flag_set(preset, "BROKEN_AUTH") &&
            !support::lists_failure_mode(preset, "broken_auth")) {
            return R"({"active":false,"state":null,"idle":true})";  // the preset decided
        }
        if (support::is_probe(request)) {
            return support::probe_answer(
                true, support::claimed(preset, {"BROKEN_AUTH"}, {"broken_auth"}));
        }
        json spec = request.value("spec", json::object());
        const std::string run_id = request.value("run_id", spec.value("run_id", std::string()));
        sbx::SplitMix64 random(support::run_seed(spec, seed_));
        Changes changes;
        garble_variables(spec, random, changes);
        try {
            garble_files(spec, request.value("state_dir", std::string()), random, changes);
        } catch (...) {
            release(changes.held);  // a half-made change must not outlive a failed prepare
            throw;
        }
        host::log(SBX_LOG_INFO, "run " + run_id + ": invalidated variables " +
                                    joined(changes.variables) + "; files " + joined(changes.files) +
                                    (changes.unchanged.empty()
                                         ? std::string()
                                         : "; left as they were: " + joined(changes.unchanged)));
        // What the run got, for the host's fault accounting: nothing to invalidate is no
        // broken authentication, and the scenario must not pass for one.
        json applied = json::array();
        if (!changes.variables.empty()) {
            applied.push_back("invalidated " + joined(changes.variables));
        }
        if (!changes.files.empty()) {
            applied.push_back("invalidated files " + joined(changes.files));
        }
        std::string patterns;
        for (const auto &pattern : variables_) {
            patterns += (patterns.empty() ? "" : ", ") + pattern;
        }
        return json{{"active", true},
                    {"spec", spec},
                    {"state", {{"run_id", run_id}, {"held", changes.held}}},
                    {"applied", applied},
                    {"not_applied", applied.empty()
                                        ? "no credentials to invalidate: no variable of the run "
                                          "matches " +
                                              patterns +
                                              ", and no credential file is listed "
                                              "(plugins.broken_auth.files)"
                                        : ""},
                    {"broken_auth",
                     {{"variables", changes.variables},
                      {"files", changes.files},
                      {"unchanged", changes.unchanged}}}}
            .dump();
    }

    void teardown(const std::string &state_json) override {
        const json state = json::parse(state_json);
        if (!state.is_object()) {
            return;
        }
        const auto held = state.value("held", std::vector<std::string>());
        release(held);
        if (!held.empty()) {
            host::log(SBX_LOG_DEBUG, "run " + state.value("run_id", std::string()) +
                                         ": credential files restored: " + joined(held));
        }
    }

    std::string sweep(const std::string &request_json) override {
        const json request = json::parse(request_json);
        const std::string state_dir = request.value("state_dir", std::string());
        json removed = json::array();
        if (!state_dir.empty()) {
            for (const auto &restored : sweep_files(fs::path(state_dir) / "broken_auth",
                                                    request.value("dry_run", false))) {
                removed.push_back(restored);
            }
        }
        return json{{"removed", removed}}.dump();
    }

  private:
    void garble_variables(json &spec, sbx::SplitMix64 &random, Changes &changes) const {
        json &env = spec["env"];
        if (env.is_null()) {
            env = json::object();
        }
        if (!env.is_object()) {
            throw Error(SBX_INVALID, "run spec: env must be an object, got " + env.dump());
        }
        for (auto &[name, value] : env.items()) {
            if (!value.is_string() || !matches_any(name, variables_)) {
                continue;
            }
            const std::string wrong = garble(value.get<std::string>(), random);
            if (wrong == value.get<std::string>()) {
                changes.unchanged.push_back(name + ": no letter or digit to change");
                continue;
            }
            value = wrong;
            changes.variables.push_back(name);
        }
    }

    void garble_files(json &spec, const std::string &state_dir, sbx::SplitMix64 &random,
                      Changes &changes) const {
        const std::string workspace = spec.value("workspace", std::string());
        for (const auto &file : files_) {
            const fs::path path(file);
            json &spec_files = spec["files"];
            if (path.is_relative() && spec_files.is_object() && spec_files.contains(file) &&
                spec_files[file].is_string()) {
                const std::string wrong = garble(spec_files[file].get<std::string>(), random);
                if (wrong == spec_files[file].get<std::string>()) {
                    changes.unchanged.push_back(file + ": no letter or digit to change");
                } else {
                    spec_files[file] = wrong;
                    changes.files.push_back(file + " (spec)");
                }
                continue;
            }
            if (spec_files.is_null()) {
                spec.erase("files");
            }
            if (path.is_relative() && workspace.empty()) {
                changes.unchanged.push_back(file + ": not in the spec's files");
                continue;
            }
            const fs::path where =
                fs::absolute(path.is_relative() ? fs::path(workspace) / path : path);
            if (state_dir.empty()) {
                throw Error(SBX_INVALID, "broken_auth needs the request's state_dir to save " +
                                             where.string() + " before changing it");
            }
            switch (hold_file(where, fs::absolute(state_dir) / "broken_auth", random)) {
                case HoldResult::kGarbled:
                    changes.files.push_back(where.string() + " (in place)");
                    changes.held.push_back(where.string());
                    break;
                case HoldResult::kAbsent:
                    changes.unchanged.push_back(where.string() + ": no such file");
                    break;
                case HoldResult::kUngarblable:
                    changes.unchanged.push_back(where.string() + ": no letter or digit to change");
                    break;
            }
        }
    }

    // Releases every path, even when one fails; the first failure is rethrown after.
    static void release(const std::vector<std::string> &paths) {
        std::exception_ptr first;
        for (const auto &path : paths) {
            try {
                release_file(path);
            } catch (...) {
                if (!first) {
                    first = std::current_exception();
                }
            }
        }
        if (first) {
            std::rethrow_exception(first);
        }
    }

    std::vector<std::string> variables_;
    std::vector<std::string> files_;
    std::uint64_t seed_ = 0;
};

}  // namespace
}  // namespace sbx::broken_auth

SBX_PLUGIN(sbx::broken_auth::BrokenAuth);
