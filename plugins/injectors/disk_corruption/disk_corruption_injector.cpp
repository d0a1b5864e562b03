// The `disk_corruption` injector: when the preset lists disk_corruption in FAILURE_MODES, the
// target runs with an LD_PRELOAD shim (corrupt_writes.c, built beside this plugin) that flips
// bytes the target writes to files of its workspace, at a seeded rate.
//
// Everything it changes lives in the spec's environment, so teardown only collects the
// shim's counts (a report file in the state folder) and removes that file; sweep removes the
// report files of hosts that died.
#include <sbx/plugin.hpp>

#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <sbx/process_identity.hpp>
#include "preload_copy.hpp"
#include "support/preset_activation.hpp"
#include "support/probe_request.hpp"
#include "support/run_seed.hpp"

namespace sbx::disk_corruption {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr const char kShimName[] = "disk_corruption_shim.so.1";
constexpr const char kRateKey[] = "SANDBOX_CORRUPTION_RATE";

// The folder this plugin was loaded from: the shim is built beside it.
fs::path plugin_folder() {
    static const char anchor = 0;  // any object of this .so tells dladdr which file it is
    Dl_info info{};
    if (::dladdr(&anchor, &info) == 0 || info.dli_fname == nullptr) {
        return {};
    }
    return fs::absolute(info.dli_fname).parent_path();
}

// A fraction in [0, 1]: a number, or text such as "0.01" or "1%".
double parse_rate(const json &value, const std::string &where) {
    double rate = -1;
    if (value.is_number()) {
        rate = value.get<double>();
    } else if (value.is_string()) {
        std::string text = support::trimmed(value.get<std::string>());
        const bool percent = !text.empty() && text.back() == '%';
        if (percent) {
            text.pop_back();
        }
        std::size_t used = 0;
        try {
            rate = std::stod(text, &used);
        } catch (const std::exception &) {
            used = 0;
        }
        if (used == 0 || used != text.size()) {
            rate = -1;
        } else if (percent) {
            rate /= 100;
        }
    }
    if (!(rate >= 0 && rate <= 1)) {
        throw Error(SBX_INVALID, where + ": " + value.dump() +
                                     " is not a fraction between 0 and 1; write e.g. 0.01 or 1%");
    }
    return rate;
}

// The shortest text that reads back as `rate` ("0.05", not "0.050000000000000003").
std::string rate_text(double rate) {
    char buffer[32];
    for (int digits = 1; digits <= 17; ++digits) {
        std::snprintf(buffer, sizeof(buffer), "%.*g", digits, rate);
        if (std::strtod(buffer, nullptr) == rate) {
            break;
        }
    }
    return buffer;
}

// A report file's counts: lines "pid P examined E flipped F", several per process.
struct Counts {
    unsigned long long examined = 0;
    unsigned long long flipped = 0;
    std::set<long> processes;
};

Counts read_counts(const fs::path &report) {
    Counts counts;
    std::ifstream in(report);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string pid_word;
        std::string examined_word;
        std::string flipped_word;
        long pid = 0;
        unsigned long long examined = 0;
        unsigned long long flipped = 0;
        if (words >> pid_word >> pid >> examined_word >> examined >> flipped_word >> flipped &&
            pid_word == "pid") {
            counts.examined += examined;
            counts.flipped += flipped;
            counts.processes.insert(pid);
        }
    }
    return counts;
}

class DiskCorruption final : public Injector {
  public:
    static constexpr About about{
        "disk_corruption",
        "Disk corruption",
        "1.0.0",
        "Flips bytes the target writes to its workspace files, at a seeded rate, through an "
        "LD_PRELOAD shim, when the preset lists disk_corruption in FAILURE_MODES.",
        R"json({"type":"object","additionalProperties":false,"properties":{
          "rate":{"type":"number","minimum":0,"maximum":1,"default":0.01,
            "description":"fraction of written bytes flipped when the preset sets no SANDBOX_CORRUPTION_RATE"},
          "seed":{"type":"integer","minimum":0,"default":0,
            "description":"mixed with each run's identity (the spec's seed, else its run_id without the host pid): the same seed and run flip the same file offsets"},
          "shim":{"type":"string","default":"",
            "description":"path of the LD_PRELOAD shim; empty: disk_corruption_shim.so.1 beside this plugin"}}})json",
        "sandbox-runner",
        "https://example.invalid/sandbox-runner",
        "Apache-2.0"};

    explicit DiskCorruption(const std::string &config_json) {
        const json config = json::parse(config_json.empty() ? "{}" : config_json);
        default_rate_ = parse_rate(config.value("rate", json(0.01)), "rate");
        seed_ = config.value("seed", std::uint64_t{0});
        const std::string shim = config.value("shim", std::string());
        shim_ = shim.empty() ? plugin_folder() / kShimName : fs::absolute(shim);
        std::error_code missing;
        if (fs::exists(shim_, missing)) {  // else prepare says it is missing
            preload_ = std::make_unique<PreloadCopy>(shim_);
        }
    }

    std::string prepare(const std::string &request_json) override {
        const json request = json::parse(request_json);
        const json preset = request.value("preset", json::object());
        if (!support::lists_failure_mode(preset, "disk_corruption")) {
            return R"({"active":false,"state":null})";
        }
        if (::access(shim_.c_str(), R_OK) != 0) {
            throw Error(SBX_ERROR,
                        "the LD_PRELOAD shim " + shim_.string() +
                            " is missing; build it (target sbx_disk_corruption_shim, "
                            "built with the plugin) or set plugins.disk_corruption.shim");
        }
        if (support::is_probe(request)) {
            return support::probe_answer(true);
        }
        json spec = request.value("spec", json::object());
        json &env = spec["env"];
        if (env.is_null()) {
            env = json::object();
        }
        const double rate = preset.contains(kRateKey) ? parse_rate(preset[kRateKey], kRateKey)
                            : env.contains(kRateKey)  ? parse_rate(env[kRateKey], kRateKey)
                                                      : default_rate_;
        const std::uint64_t seed = support::run_seed(spec, seed_);
        const std::string preload = env.value("LD_PRELOAD", std::string());
        const std::string shim = preload_ ? preload_->path().string() : shim_.string();
        env["LD_PRELOAD"] = shim + (preload.empty() ? "" : ":" + preload);
        env[kRateKey] = rate_text(rate);
        env["SANDBOX_CORRUPTION_SEED"] = std::to_string(seed);
        const std::string workspace = spec.value("workspace", std::string());
        if (!workspace.empty()) {
            env["SANDBOX_CORRUPTION_ROOT"] = workspace;
        }
        const std::string run_id = request.value("run_id", spec.value("run_id", std::string()));
        const fs::path report = make_report(request.value("state_dir", std::string()));
        if (!report.empty()) {
            env["SANDBOX_CORRUPTION_REPORT"] = report.string();
            // The shim appends its counts there from inside the sandbox, whose view of the
            // host is read-only (and whose /tmp is its own).
            spec["show"].push_back(report.string() + ":rw");
        }
        spec["show"].push_back(shim);
        host::log(SBX_LOG_DEBUG, "run " + run_id + ": flipping written bytes at rate " +
                                     rate_text(rate) + " (seed " + std::to_string(seed) +
                                     ") through LD_PRELOAD=" + shim);
        const json state{{"run_id", run_id}, {"rate", rate}, {"report", report.string()}};
        return json{{"active", true},
                    {"spec", spec},
                    {"state", state},
                    {"disk_corruption", {{"rate", rate}, {"seed", seed}, {"shim", shim}}}}
            .dump();
    }

    // The shim's counts so far: bytes flipped of those written, by how many processes.
    std::string tally(const std::string &state_json) override {
        const json state = json::parse(state_json);
        if (!state.is_object() || state.value("report", std::string()).empty()) {
            return "{}";  // no report to read: prepare's word stands
        }
        const Counts counts = read_counts(state["report"].get<std::string>());
        json applied = json::array();
        std::string why;
        if (counts.flipped > 0) {
            applied.push_back("flipped " + std::to_string(counts.flipped) + " of " +
                              std::to_string(counts.examined) + " written bytes");
        } else if (counts.processes.empty()) {
            why =
                "the LD_PRELOAD shim reached no process of the target (a statically linked "
                "or setuid program, or a sandbox without the shim)";
        } else {
            why = std::to_string(counts.examined) +
                  " byte(s) written to workspace files, none drawn for corruption at rate " +
                  rate_text(state.value("rate", 0.0));
        }
        return json{{"applied", applied}, {"not_applied", why}}.dump();
    }

    void teardown(const std::string &state_json) override {
        const json state = json::parse(state_json);
        if (!state.is_object() || state.value("report", std::string()).empty()) {
            return;
        }
        const fs::path report = state["report"].get<std::string>();
        const Counts counts = read_counts(report);
        if (counts.processes.empty()) {
            // Not one process of the target loaded the shim: nothing was corrupted.
            host::log(SBX_LOG_WARN,
                      "run " + state.value("run_id", std::string()) +
                          ": the LD_PRELOAD shim reached no process of the target (a statically "
                          "linked or setuid program, or an executor whose sandbox lacks the "
                          "shim); no written byte was corrupted");
        }
        host::log(SBX_LOG_INFO,
                  "run " + state.value("run_id", std::string()) + ": flipped " +
                      std::to_string(counts.flipped) + " of " + std::to_string(counts.examined) +
                      " bytes written to workspace files by " +
                      std::to_string(counts.processes.size()) + " process(es) (rate " +
                      rate_text(state.value("rate", 0.0)) + ")");
        std::error_code ignored;
        fs::remove(report, ignored);
    }

    std::string sweep(const std::string &request_json) override {
        const json request = json::parse(request_json);
        json removed = json::array();
        const std::string state_dir = request.value("state_dir", std::string());
        const bool dry_run = request.value("dry_run", false);
        for (const std::string &copy : sweep_preload_copies(dry_run)) {
            removed.push_back(copy);
        }
        if (state_dir.empty()) {
            return json{{"removed", removed}}.dump();
        }
        std::error_code error;
        for (const auto &entry :
             fs::directory_iterator(fs::path(state_dir) / "disk_corruption", error)) {
            if (entry.path().extension() != ".report") {
                continue;
            }
            std::ifstream in(entry.path());
            std::string word;
            ProcessIdentity writer;
            in >> word >> writer.pid >> writer.start_time;
            if (word == "host" && writer.alive()) {
                continue;  // a running host's run
            }
            std::error_code ignored;
            if (dry_run || fs::remove(entry.path(), ignored)) {
                removed.push_back("report " + entry.path().string());
            }
        }
        return json{{"removed", removed}}.dump();
    }

  private:
    // <state_dir>/disk_corruption/<pid>-<n>.report, its first line naming this host, which
    // the shim's processes append their counts to. "" when the request names no state_dir.
    static fs::path make_report(const std::string &state_dir) {
        if (state_dir.empty()) {
            return {};
        }
        static std::atomic<std::uint64_t> counter{0};
        // Absolute: the target runs elsewhere (its workspace), and the host may be given a
        // relative data folder.
        const fs::path folder = fs::absolute(state_dir) / "disk_corruption";
        fs::create_directories(folder);
        const ProcessIdentity self = ProcessIdentity::current();
        fs::path report =
            folder / (std::to_string(self.pid) + "-" + std::to_string(++counter) + ".report");
        std::ofstream(report) << "host " << self.pid << ' ' << self.start_time << '\n';
        return report;
    }

    double default_rate_ = 0.01;
    std::uint64_t seed_ = 0;
    fs::path shim_;
    std::unique_ptr<PreloadCopy> preload_;  // what LD_PRELOAD names; null: shim_ is missing
};

}  // namespace
}  // namespace sbx::disk_corruption

SBX_PLUGIN(sbx::disk_corruption::DiskCorruption);
