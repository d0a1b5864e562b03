// What the `extended` collector keeps of one cell's runs until the cell ends: how often each
// behaviour and each outcome occurred, the CPU spent, and each repetition's verdict, run time
// and whether it crashed or hung.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace sbx::extended {

// The figures of one finished cell (docs/semantics.md gives each formula).
struct CellFigures {
    double shannon_entropy = 0;            // of the runs' behaviours, in [0, 1]
    double outcome_entropy = 0;            // of the runs' outcomes, in [0, 1]
    double efficiency = 0;                 // 1 / (1 + cpu_s_per_pass), 0 with no pass
    std::optional<double> cpu_s_per_pass;  // none when no run passed
    std::optional<double> antifragility;   // none with fewer than two runs
    std::optional<double> throughput;      // passing runs per second of run time; none at 0 s
    std::optional<double> recovery_time;   // seconds; none when no failure was recovered from
    double safety_rating = 1;              // share of runs that neither crashed nor hung
    double risk_index = 0;                 // 95 % upper bound of the failure probability
};

// One run as the tally keeps it.
struct TalliedRun {
    bool passed = false;
    double wall_s = 0;    // the steps' wall time, summed
    bool unsafe = false;  // crashed or hung
};

class CellTally {
  public:
    // Adds one run from its collect request ({passed, failed_step, outcome, repetition,
    // steps, step_names}).
    void add_run(const nlohmann::json &request);
    [[nodiscard]] CellFigures figures() const;
    [[nodiscard]] int runs() const { return runs_; }

  private:
    std::map<uint64_t, int> behaviours_;   // by a hash of every step's status and stdout
    std::map<std::string, int> outcomes_;  // "pass", "<step>:<status>" or "<step>:expect"
    std::map<int64_t, TalliedRun> by_repetition_;
    double cpu_s_ = 0;
    double wall_s_ = 0;
    int runs_ = 0;
    int passes_ = 0;
    int unsafe_ = 0;
};

// Shannon entropy of the counts in bits, divided by log2 of their total: 0 when every
// observation fell in one class, 1 when each fell in its own; 0 for fewer than two.
double normalized_entropy(const std::vector<int> &counts);

// The mean time to recover of runs in repetition order: for each streak of failing runs that
// a passing run ends, the streak's run time (from the start of its first failing run to the
// start of the passing one, runs back to back); their mean. 0 when no run failed; none when
// runs failed but no pass followed any of them.
std::optional<double> recovery_time(const std::map<int64_t, TalliedRun> &by_repetition);

// The Wilson score upper bound (95 %, z = 1.96) of a probability seen `hits` times in `n`
// trials: the largest per-run probability the trials cannot rule out. 0 for n = 0.
double wilson_upper(int hits, int n);

// True when the run crashed or hung: the host's outcome class (`outcome`, since host 1.3),
// else (an older host) a step that ended SG, OOM or TO.
bool unsafe_run(const nlohmann::json &request);

}  // namespace sbx::extended
