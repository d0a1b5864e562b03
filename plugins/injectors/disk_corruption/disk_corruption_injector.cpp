// The `disk_corruption` injector: when the preset asks for a disk fault (disk_plan.hpp), the
// target runs with an LD_PRELOAD shim (corrupt_writes.c, built beside this plugin) that flips
// bytes the target writes to files of its workspace at a seeded rate, fills the disk (ENOSPC)
// after so many bytes, or slows the first writes.
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
#include "disk_plan.hpp"
#include "preload_copy.hpp"
#include "support/preset_activation.hpp"
#include "support/probe_request.hpp"
#include "support/run_seed.hpp"

namespace sbx::disk_corruption {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr const char kShimName[] = "disk_corruption_shim.so.1";

std::string plural(unsigned long long count, const std::string &noun) {
    return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

// The folder this plugin was loaded from: the shim is built beside it.
fs::path plugin_folder() {
    static const char anchor = 0;  // any object of this .so tells dladdr which file it is
    Dl_info info{};
    if (::dladdr(&anchor, &info) == 0 || info.dli_fname == nullptr) {
        return {};
    }
    return fs::absolute(info.dli_fname).parent_path();
}

// A report file's counts: lines "pid P examined E flipped F [refused R delayed D]", several
// per process.
struct Counts {
    unsigned long long examined = 0;
    unsigned long long flipped = 0;
    unsigned long long refused = 0;  // writes that found the disk full
    unsigned long long delayed = 0;  // writes slowed
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
            std::string refused_word;
            std::string delayed_word;
            unsigned long long refused = 0;
            unsigned long long delayed = 0;
            if (words >> refused_word >> refused >> delayed_word >> delayed) {
                counts.refused += refused;
                counts.delayed += delayed;
            }
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
        "Disk faults through an LD_PRELOAD shim: flips bytes the target writes to its workspace "
        "files at a seeded rate (disk_corruption), fills the disk after so many bytes "
        "(disk_full, DISK_FULL_AFTER) or slows the first writes (slow_disk, "
        "DISK_WRITE_DELAY_MS).",
        R"json({"type":"object","additionalProperties":false,"properties":{
          "rate":{"type":"number","minimum":0,"maximum":1,"default":0.01,
            "description":"fraction of written bytes flipped when the preset sets no SANDBOX_CORRUPTION_RATE"},
          "full_after":{"type":"integer","minimum":0,"default":65536,
            "description":"bytes each process may write to workspace files before ENOSPC when the preset lists disk_full without DISK_FULL_AFTER"},
          "write_delay_ms":{"type":"integer","minimum":0,"maximum":3600000,"default":200,
            "description":"delay of each slowed write when the preset lists slow_disk without DISK_WRITE_DELAY_MS"},
          "slow_writes":{"type":"integer","minimum":0,"default":20,
            "description":"how many writes of each process are slowed (bounded: a program that writes much is slowed, not timed out)"},
          "seed":{"type":"integer","minimum":0,"default":0,
            "description":"mixed with each run's identity (the spec's seed, else its run_id without the host pid): the same seed and run flip the same file offsets"},
          "shim":{"type":"string","default":"",
            "description":"path of the LD_PRELOAD shim; empty: disk_corruption_shim.so.1 beside this plugin"}}})json",
        "sandbox-runner",
        "https://example.invalid/sandbox-runner",
        "Apache-2.0"};

    explicit DiskCorruption(const std::string &config_json) {
        const json config = json::parse(config_json.empty() ? "{}" : config_json);
        defaults_.rate = parse_rate(config.value("rate", json(0.01)), "rate");
        defaults_.full_after = config.value("full_after", defaults_.full_after);
        defaults_.write_delay_ms = config.value("write_delay_ms", defaults_.write_delay_ms);
        defaults_.slow_writes = config.value("slow_writes", defaults_.slow_writes);
        seed_ = config.value("seed", std::uint64_t{0});
        const std::string shim = config.value("shim", std::string());
        shim_ = shim.empty() ? plugin_folder() / kShimName : fs::absolute(shim);
    }

    std::string prepare(const std::string &request_json) override {
        const json request = json::parse(request_json);
        const json preset = request.value("preset", json::object());
        json spec = request.value("spec", json::object());
        json &env = spec["env"];
        if (env.is_null()) {
            env = json::object();
        }
        const DiskPlan plan =
            plan_from_preset(preset, env.contains(kRateKey) ? env[kRateKey] : json(), defaults_,
                             request.value("repetition", std::int64_t{-1}));
        if (!plan.active()) {
            return R"({"active":false,"state":null})";
        }
        if (::access(shim_.c_str(), R_OK) != 0) {
            throw Error(SBX_ERROR,
                        "the LD_PRELOAD shim " + shim_.string() +
                            " is missing; build it (target sbx_disk_corruption_shim, "
                            "built with the plugin) or set plugins.disk_corruption.shim");
        }
        // Copied only by an instance that preloads it (the probe proves the copy can be
        // made): a host that flips no byte leaves no file behind, even when it is killed.
        if (!preload_) {
            preload_ = std::make_unique<PreloadCopy>(shim_);
        }
        if (support::is_probe(request)) {
            return support::probe_answer(true, disk_claims(preset));
        }
        const double rate = plan.corrupt ? plan.rate : 0.0;
        const std::uint64_t seed = support::run_seed(spec, seed_);
        const std::string preload = env.value("LD_PRELOAD", std::string());
        const std::string shim = preload_->path().string();
        env["LD_PRELOAD"] = shim + (preload.empty() ? "" : ":" + preload);
        env[kRateKey] = rate_text(rate);
        env["SANDBOX_CORRUPTION_SEED"] = std::to_string(seed);
        if (plan.full) {
            env["SANDBOX_DISK_FULL_AFTER"] = std::to_string(plan.full_after);
        }
        if (plan.slow) {
            env["SANDBOX_DISK_WRITE_DELAY_MS"] = std::to_string(plan.write_delay_ms);
            env["SANDBOX_DISK_SLOW_WRITES"] = std::to_string(plan.slow_writes);
        }
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
        host::log(
            SBX_LOG_DEBUG,
            "run " + run_id + ": through LD_PRELOAD=" + shim + ": corruption rate " +
                rate_text(rate) + " (seed " + std::to_string(seed) + ")" +
                (plan.full ? ", disk full after " + std::to_string(plan.full_after) + " bytes"
                           : "") +
                (plan.slow ? ", first " + std::to_string(plan.slow_writes) + " writes slowed by " +
                                 std::to_string(plan.write_delay_ms) + " ms"
                           : ""));
        json state{{"run_id", run_id}, {"rate", rate}, {"report", report.string()}};
        json described{{"rate", rate}, {"seed", seed}, {"shim", shim}};
        if (plan.full) {
            state["full_after"] = plan.full_after;
            described["full_after"] = plan.full_after;
        }
        if (plan.slow) {
            state["write_delay_ms"] = plan.write_delay_ms;
            described["write_delay_ms"] = plan.write_delay_ms;
            described["slow_writes"] = plan.slow_writes;
        }
        return json{
            {"active", true}, {"spec", spec}, {"state", state}, {"disk_corruption", described}}
            .dump();
    }

    // The shim's counts so far: bytes flipped of those written, by how many processes.
    std::string tally(const std::string &state_json) override {
        const json state = json::parse(state_json);
        if (!state.is_object() || state.value("report", std::string()).empty()) {
            return "{}";  // no report to read: prepare's word stands
        }
        const Counts counts = read_counts(state["report"].get<std::string>());
        const double rate = state.value("rate", 0.0);
        const bool full = state.contains("full_after");
        const bool slow = state.contains("write_delay_ms");
        json applied = json::array();
        json missed = json::array();
        if (counts.processes.empty()) {
            return json{{"applied", applied},
                        {"not_applied",
                         "the LD_PRELOAD shim reached no process of the target (a statically "
                         "linked or setuid program, or a sandbox without the shim)"}}
                .dump();
        }
        const std::string written = plural(counts.examined, "byte") + " written to workspace files";
        if (rate > 0) {
            (counts.flipped > 0 ? applied : missed)
                .push_back(counts.flipped > 0 ? "flipped " + std::to_string(counts.flipped) +
                                                    " of " + plural(counts.examined, "written byte")
                                              : "corruption: " + written + ", none drawn at rate " +
                                                    rate_text(rate));
        }
        // The same words in every run (the report counts runs per text); the counts go
        // beside them.
        if (full) {
            (counts.refused > 0 ? applied : missed)
                .push_back(counts.refused > 0 ? std::string("disk full (ENOSPC)")
                                              : "disk full after " +
                                                    std::to_string(state.value("full_after", 0LL)) +
                                                    " bytes: " + written + ", none refused");
        }
        if (slow) {
            const std::string delay = std::to_string(state.value("write_delay_ms", 0LL)) + " ms";
            (counts.delayed > 0 ? applied : missed)
                .push_back(counts.delayed > 0 ? "writes slowed by " + delay
                                              : "slow disk: no write to a workspace file");
        }
        std::string why;
        for (const auto &item : missed) {
            why += (why.empty() ? "" : "; ") + item.get<std::string>();
        }
        return json{{"applied", applied},
                    {"missed", applied.empty() ? json::array() : missed},
                    {"not_applied", why},
                    {"disk_corruption",
                     {{"examined", counts.examined},
                      {"flipped", counts.flipped},
                      {"refused", counts.refused},
                      {"delayed", counts.delayed}}}}
            .dump();
    }

    void teardown(const std::string &state_json) override {
        const json state = json::parse(state_json);
        if (!state.is_object() || state.value("report", std::string()).empty()) {
            return;
        }
        const fs::path report = state["report"].get<std::string>();
        const Counts counts = read_counts(report);
        if (counts.processes.empty()) {
            // Not one process of the target loaded the shim: no disk fault reached it.
            host::log(SBX_LOG_WARN,
                      "run " + state.value("run_id", std::string()) +
                          ": the LD_PRELOAD shim reached no process of the target (a statically "
                          "linked or setuid program, or an executor whose sandbox lacks the "
                          "shim); no disk fault reached the target");
        }
        // Debug: one line per run, and the run's fault accounting says it all already.
        std::string what = "run " + state.value("run_id", std::string()) + ": " +
                           plural(counts.examined, "byte") + " written to workspace files by " +
                           std::to_string(counts.processes.size()) + " process(es)";
        if (state.value("rate", 0.0) > 0) {
            what += "; flipped " + std::to_string(counts.flipped) + " (rate " +
                    rate_text(state.value("rate", 0.0)) + ")";
        }
        if (state.contains("full_after")) {
            what += "; " + plural(counts.refused, "write") + " found the disk full";
        }
        if (state.contains("write_delay_ms")) {
            what += "; " + plural(counts.delayed, "write") + " slowed";
        }
        host::log(SBX_LOG_DEBUG, what);
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

    DiskDefaults defaults_;
    std::uint64_t seed_ = 0;
    fs::path shim_;
    std::unique_ptr<PreloadCopy> preload_;  // what LD_PRELOAD names; null until first active
};

}  // namespace
}  // namespace sbx::disk_corruption

SBX_PLUGIN(sbx::disk_corruption::DiskCorruption);
