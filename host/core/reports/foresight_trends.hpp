// Reading foresight_history.json back (docs/semantics.md "Foresight trends"): per workflow,
// which way its trajectory's resilience is heading over the recorded cycles and whether
// its latest stability holds up against its history. The autonomous loop reports them.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sbx::reports {

struct ForesightTrend {
    std::string workflow;
    int cycles = 0;
    double resilience_slope = 0;  // per cycle, of the mean stage resilience of each cycle
    double latest_stability = 1;
    double mean_stability = 1;
    std::string direction;  // "improving", "degrading" or "flat" (|slope| ≤ 0.01 per cycle)
    bool stable = true;     // latest stability ≥ the mean of the history's
};

// The cycles of the file, oldest first; none when it does not exist. A file that is not a
// foresight history is an InputError naming it.
std::vector<nlohmann::json> load_foresight_cycles(const std::filesystem::path &path);

// The trend of each workflow the cycles hold, by name.
std::vector<ForesightTrend> foresight_trends(const std::vector<nlohmann::json> &cycles);

}  // namespace sbx::reports
