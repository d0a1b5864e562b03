// The `coverage_capture` injector: lets a target built for coverage (gcc or clang
// `--coverage`) write its gcov data, and a Python target its coverage.py data, where the
// `coverage` collector reads them. Each step's target gets GCOV_PREFIX and COVERAGE_FILE
// pointing into its workspace (and a PYTHONPATH hook that starts coverage.py); after the
// step the data is moved out of the workspace into the state dir, and the step's result
// says where (`injections.coverage_capture.dir`). A program not built for coverage ignores
// the variables, so the injector may stay on for every run.
#include <sbx/plugin.hpp>

#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

#include "capture_folders.hpp"
#include "python_hook.hpp"
#include "support/probe_request.hpp"

namespace sbx::coverage_capture {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

class CoverageCaptureInjector final : public Injector {
  public:
    static constexpr About about{
        "coverage_capture",
        "Coverage capture",
        "1.0.0",
        "Gives each step's target GCOV_PREFIX and COVERAGE_FILE in its workspace (and a "
        "PYTHONPATH hook starting coverage.py) and keeps the data for the coverage "
        "collector; programs not built for coverage ignore it.",
        R"json({"type":"object","additionalProperties":false,"properties":{
          "python":{"type":"boolean","default":true,
            "description":"also start coverage.py in Python targets (a sitecustomize hook first on PYTHONPATH; an interpreter without the coverage module runs as it is)"}}})json",
        "sandbox-runner",
        "https://example.invalid/sandbox-runner",
        "Apache-2.0"};

    explicit CoverageCaptureInjector(const std::string &config_json)
        : python_(json::parse(config_json).value("python", true)) {
        const std::lock_guard<std::mutex> lock(instances().mutex);
        ++instances().count;
    }

    // Data the collector never read (it is not configured, or the run was cancelled) goes
    // with the process's last instance: the host ends instances after their runs.
    ~CoverageCaptureInjector() override {
        const std::lock_guard<std::mutex> lock(instances().mutex);
        if (--instances().count == 0 && !instances().state_dir.empty()) {
            std::error_code ignored;
            fs::remove_all(host_folder(instances().state_dir), ignored);
            instances().python_hook.clear();  // a later instance writes it anew
        }
    }
    CoverageCaptureInjector(const CoverageCaptureInjector &) = delete;
    CoverageCaptureInjector &operator=(const CoverageCaptureInjector &) = delete;
    CoverageCaptureInjector(CoverageCaptureInjector &&) = delete;
    CoverageCaptureInjector &operator=(CoverageCaptureInjector &&) = delete;

    std::string prepare(const std::string &request_json) override {
        const json request = json::parse(request_json);
        if (support::is_probe(request)) {
            return support::probe_answer(false);
        }
        json spec = request.value("spec", json::object());
        const std::string workspace = spec.value("workspace", "");
        const std::string run_id = request.value("run_id", spec.value("run_id", ""));
        // Absolute: the target resolves PYTHONPATH from its own folder, collectors from theirs.
        const std::string state_dir =
            request.value("state_dir", "").empty()
                ? std::string()
                : fs::absolute(request.value("state_dir", "")).lexically_normal().string();
        if (workspace.empty() || run_id.empty() || state_dir.empty()) {
            return json{{"active", false},
                        {"state", nullptr},
                        {"coverage_capture",
                         {{"skipped",
                           "no workspace named by the host: the executor makes its "
                           "own, which the host cannot read coverage from"}}}}
                .dump();
        }
        const fs::path capture = capture_folder(workspace, run_id);
        const fs::path kept = kept_folder(state_dir, run_id);
        json &env = spec["env"];
        if (!env.is_object()) {
            env = json::object();
        }
        // A step that measures itself (`gcov` after its run, `pytest --cov`) keeps its own
        // settings: its coverage files stay where it writes them.
        json report = {{"dir", kept.string()}};
        if (env.contains("GCOV_PREFIX")) {
            report["own"].push_back("GCOV_PREFIX");
        } else {
            // The full object path under the prefix: the collector finds each .gcno from it.
            env["GCOV_PREFIX"] = capture.string();
            env["GCOV_PREFIX_STRIP"] = "0";
        }
        {
            const std::lock_guard<std::mutex> lock(instances().mutex);
            instances().state_dir = state_dir;
        }
        if (python_ && (env.contains("COVERAGE_FILE") || env.contains("COVERAGE_PROCESS_START"))) {
            report["own"].push_back("COVERAGE_FILE");
        } else if (python_) {
            env["COVERAGE_FILE"] = (capture / "python.coverage").string();
            // The step's own PYTHONPATH stays after the hook, which takes itself off sys.path.
            // Only the step's: executors do not pass the host's environment on by default.
            const json own = env.value("PYTHONPATH", json());
            const std::string hook = python_hook(state_dir).string();
            env["PYTHONPATH"] = own.is_string() && !own.get<std::string>().empty()
                                    ? hook + ":" + own.get<std::string>()
                                    : hook;
        }
        return json{{"active", true},
                    {"spec", spec},
                    {"state", {{"capture", capture.string()}, {"kept", kept.string()}}},
                    {"coverage_capture", report}}
            .dump();
    }

    void teardown(const std::string &state_json) override {
        const json state = json::parse(state_json);
        if (!state.is_object()) {
            return;
        }
        try {
            keep(state.value("capture", ""), state.value("kept", ""));
        } catch (const fs::filesystem_error &e) {
            host::log(SBX_LOG_WARN, std::string("coverage data not kept: ") + e.what());
        }
    }

    std::string sweep(const std::string &request_json) override {
        const json request = json::parse(request_json);
        return json{{"removed",
                     sweep_kept(request.value("state_dir", ""), request.value("dry_run", false))}}
            .dump();
    }

  private:
    // The instances alive in this process (one per host worker), the state dir they keep
    // data in and the Python hook's folder, written once.
    struct Instances {
        std::mutex mutex;
        int count = 0;
        std::string state_dir;
        fs::path python_hook;
    };

    static fs::path python_hook(const std::string &state_dir) {
        const std::lock_guard<std::mutex> lock(instances().mutex);
        instances().state_dir = state_dir;
        if (instances().python_hook.empty()) {
            const fs::path folder = host_folder(state_dir) / "python-hook";
            write_python_hook(folder);
            instances().python_hook = folder;
        }
        return instances().python_hook;
    }

    bool python_;
    static Instances &instances() {
        static Instances all;
        return all;
    }
};

}  // namespace
}  // namespace sbx::coverage_capture

SBX_PLUGIN(sbx::coverage_capture::CoverageCaptureInjector);
