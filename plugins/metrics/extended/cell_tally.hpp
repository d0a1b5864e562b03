// What the `extended` collector keeps of one cell's runs until the cell ends: how often each
// behaviour and each outcome occurred, the CPU spent, and which repetitions passed.
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
    double failure_entropy = 0;            // of the runs' outcomes, in [0, 1]
    double efficiency = 0;                 // 1 / (1 + cpu_s_per_pass), 0 with no pass
    std::optional<double> cpu_s_per_pass;  // none when no run passed
    std::optional<double> antifragility;   // none with fewer than two runs
};

class CellTally {
  public:
    // Adds one run from its collect request ({passed, failed_step, repetition, steps,
    // step_names}).
    void add_run(const nlohmann::json &request);
    [[nodiscard]] CellFigures figures() const;
    [[nodiscard]] int runs() const { return runs_; }

  private:
    std::map<uint64_t, int> behaviours_;   // by a hash of every step's status and stdout
    std::map<std::string, int> outcomes_;  // "pass", "<step>:<status>" or "<step>:expect"
    std::map<int64_t, bool> passed_by_repetition_;
    double cpu_s_ = 0;
    int runs_ = 0;
    int passes_ = 0;
};

// Shannon entropy of the counts in bits, divided by log2 of their total: 0 when every
// observation fell in one class, 1 when each fell in its own; 0 for fewer than two.
double normalized_entropy(const std::vector<int> &counts);

}  // namespace sbx::extended
