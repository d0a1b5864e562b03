// The failure injectors active around one executor call. Teardown is tied to scope:
// every injector that prepared successfully is torn down, in reverse order, however the
// scope is left (result, exception, cancellation).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "engine/fault_accounting.hpp"
#include "plugins/plugin.hpp"

namespace sbx::engine {

class InjectionScope {
  public:
    // Calls prepare() on each injector in order, threading the run spec through them, but
    // for those in `idle` (their probe promised inactivity under this preset), unless the
    // spec has `safe_mode`, which every injector is asked about.
    // `command_seed` is the command's --seed, the same for every run of the command;
    // `repetition` the run's place in its cell (-1: none), sent when known.
    InjectionScope(std::vector<std::unique_ptr<plugins::Instance>> &injectors,
                   const std::set<std::string> &idle, const std::string &preset_text,
                   nlohmann::json spec, const std::string &state_dir, int64_t command_seed,
                   int repetition = -1);
    ~InjectionScope();
    InjectionScope(const InjectionScope &) = delete;
    InjectionScope &operator=(const InjectionScope &) = delete;

    // The run spec after every injector changed it.
    [[nodiscard]] const nlohmann::json &spec() const { return spec_; }
    // The same, as JSON text.
    [[nodiscard]] const std::string &spec_text() const { return spec_text_; }
    // Ids of the injectors that said they are active for this preset.
    [[nodiscard]] const std::vector<std::string> &active() const { return active_; }
    // What the injectors said they did, by id: the response field named after the
    // injector's id (which mechanism, which schedule, ...); empty when none said anything.
    [[nodiscard]] const nlohmann::json &reports() const { return reports_; }
    // Numbers the injectors want in the run's metrics (the response's `metrics`).
    [[nodiscard]] const std::map<std::string, double> &metrics() const { return metrics_; }
    // What the active injectors said they applied, or why not (engine/fault_accounting.hpp):
    // prepare's word, then, after tally_after_run(), what the faults really did.
    [[nodiscard]] const FaultTally &tally() const { return tally_; }
    // Asks each active injector what its faults did during the run (ABI 1.3 `tally`), before
    // any teardown. An injector whose tally fails is named in the log; its prepare's word
    // stands.
    void tally_after_run();

  private:
    void teardown_all() noexcept;
    struct Prepared {
        plugins::Instance *injector;
        std::string state;
        bool active = false;
    };
    nlohmann::json spec_;
    std::string spec_text_;
    std::vector<Prepared> prepared_;
    std::vector<std::string> active_;
    nlohmann::json reports_ = nlohmann::json::object();
    std::map<std::string, double> metrics_;
    FaultTally tally_;
};

}  // namespace sbx::engine
