// The `timeout` injector: a premature kill at a seeded moment. When the preset lists timeout
// in FAILURE_MODES and sets no TIMEOUT, the spec's limits.timeout_ms becomes a moment drawn
// uniformly in [10%, 90%] of timeout_kill_max_ms, and the executor ends the run there (TO).
//
// Nothing is made outside the spec, so teardown and sweep have nothing to undo.
#include <sbx/plugin.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "support/preset_activation.hpp"
#include "support/probe_request.hpp"
#include "support/run_seed.hpp"

namespace sbx::timeout {
namespace {

using nlohmann::json;

// The kill moment's window, as fractions of timeout_kill_max_ms: never at once (a run that
// never started tells nothing) and never at the bound itself.
constexpr double kEarliest = 0.1;
constexpr double kLatest = 0.9;

class TimeoutInjector final : public Injector {
  public:
    static constexpr About about{
        "timeout",
        "Premature timeout",
        "1.0.0",
        "Ends a run early, as a premature timeout: when the preset lists timeout in "
        "FAILURE_MODES and sets no TIMEOUT, the run is killed at a seeded moment in "
        "[10%, 90%] of timeout_kill_max_ms and its result says TO.",
        R"json({"type":"object","additionalProperties":false,"properties":{
          "timeout_kill_max_ms":{"type":"integer","minimum":1,"maximum":86400000,"default":2000,
            "description":"the bound of the kill moment, in milliseconds: each run is killed at a moment drawn uniformly in [10%, 90%] of it"},
          "seed":{"type":"integer","minimum":0,"default":0,
            "description":"mixed with each run's identity (the spec's seed, else its run_id without the host pid): the same seed and run give the same moment"}}})json",
        "sandbox-runner",
        "https://example.invalid/sandbox-runner",
        "Apache-2.0"};

    explicit TimeoutInjector(const std::string &config_json) {
        const json config = json::parse(config_json.empty() ? "{}" : config_json);
        kill_max_ms_ = config.value("timeout_kill_max_ms", std::int64_t{2000});
        seed_ = config.value("seed", std::uint64_t{0});
        if (kill_max_ms_ < 1) {
            throw Error(SBX_INVALID, "timeout_kill_max_ms must be at least 1 millisecond");
        }
    }

    std::string prepare(const std::string &request_json) override {
        const json request = json::parse(request_json);
        const json preset = request.value("preset", json::object());
        if (!support::lists_failure_mode(preset, "timeout")) {
            return R"({"active":false,"state":null,"idle":true})";  // the preset decided
        }
        if (preset.contains("TIMEOUT")) {
            // The preset's own limit is the timeout the user asked for: not shortened (the
            // executor makes it, so the mode is still claimed).
            if (support::is_probe(request)) {
                return support::probe_answer(false, json::array({"timeout"}));
            }
            return R"({"active":false,"state":null,"timeout":{"skipped":"the preset sets TIMEOUT"}})";
        }
        if (support::is_probe(request)) {
            return support::probe_answer(true, json::array({"timeout"}));
        }
        json spec = request.value("spec", json::object());
        json &limits = spec["limits"];
        if (limits.is_null()) {
            limits = json::object();
        }
        if (!limits.is_object()) {
            throw Error(SBX_INVALID, "run spec: limits must be an object, got " + limits.dump());
        }
        sbx::SplitMix64 random(support::run_seed(spec, seed_));
        const double fraction = kEarliest + (kLatest - kEarliest) * random.unit();
        const auto drawn_ms =
            std::max<std::int64_t>(1, std::llround(fraction * static_cast<double>(kill_max_ms_)));
        // A shorter limit the step already has stays: it would have ended the run first.
        std::int64_t kill_ms = drawn_ms;
        if (limits.contains("timeout_ms") && limits["timeout_ms"].is_number() &&
            limits["timeout_ms"].get<double>() > 0) {
            kill_ms = std::min(kill_ms, limits["timeout_ms"].get<std::int64_t>());
        }
        limits["timeout_ms"] = kill_ms;
        const std::string run_id = request.value("run_id", spec.value("run_id", std::string()));
        host::log(SBX_LOG_INFO,
                  "run " + run_id + ": premature timeout at " + std::to_string(kill_ms) +
                      " ms (drawn " + std::to_string(drawn_ms) + " ms of at most " +
                      std::to_string(kill_max_ms_) + ", seed " + std::to_string(seed_) + ")");
        return json{
            {"active", true},
            {"spec", spec},
            {"state", nullptr},
            {"timeout", {{"kill_ms", kill_ms}, {"drawn_ms", drawn_ms}, {"max_ms", kill_max_ms_}}}}
            .dump();
    }

    // The limit lived in the spec, which ends with the step: nothing to undo.
    void teardown(const std::string & /*state_json*/) override {}

    std::string sweep(const std::string & /*request_json*/) override { return R"({"removed":[]})"; }

  private:
    std::int64_t kill_max_ms_ = 2000;
    std::uint64_t seed_ = 0;
};

}  // namespace
}  // namespace sbx::timeout

SBX_PLUGIN(sbx::timeout::TimeoutInjector);
