// Tallying a cell's runs and turning the tally into the cell's figures.
#include "cell_tally.hpp"

#include <sbx/random.hpp>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace sbx::extended {
namespace {

using nlohmann::json;

// A run's behaviour: each step's status and exact stdout, in order. Two runs that printed
// the same things and ended the same way behave alike.
uint64_t behaviour_of(const json &steps) {
    std::string signature;
    for (const auto &step : steps) {
        signature += step.value("status", "XX");
        signature += '\0';
        signature += std::to_string(fnv1a64(step.value("stdout", "")));
        signature += '\0';
    }
    return fnv1a64(signature);
}

// A run's outcome: "pass", or the step the host judged failed and how: its status, or
// "expect" when it ended as a passing step would (status OK, say) but failed its
// expectation (its stdout or exit code). A step that passed with a non-OK status (expected
// to time out, say) is never blamed.
std::string outcome_of(const json &request) {
    if (request.value("passed", false)) {
        return "pass";
    }
    const std::string failed = request.value("failed_step", "");
    const json steps = request.value("steps", json::array());
    const json names = request.value("step_names", json::array());
    for (size_t i = 0; i < steps.size() && i < names.size(); ++i) {
        if (names[i].is_string() && names[i].get<std::string>() == failed) {
            const std::string status = steps[i].value("status", "XX");
            std::string outcome = failed;
            outcome += ':';
            outcome += status == "OK" ? "expect" : status;
            return outcome;
        }
    }
    return failed.empty() ? std::string("fail") : failed + ":fail";
}

}  // namespace

double normalized_entropy(const std::vector<int> &counts) {
    double total = 0;
    for (const int count : counts) {
        total += count;
    }
    if (total < 2) {
        return 0;
    }
    double bits = 0;
    for (const int count : counts) {
        if (count > 0) {
            const double p = count / total;
            bits -= p * std::log2(p);
        }
    }
    return bits / std::log2(total);
}

std::optional<double> recovery_time(const std::map<int64_t, TalliedRun> &by_repetition) {
    double recovered_s = 0;
    int recoveries = 0;
    bool failed_any = false;
    bool in_streak = false;
    double streak_s = 0;
    for (const auto &[repetition, run] : by_repetition) {
        if (!run.passed) {
            failed_any = true;
            in_streak = true;
            streak_s += run.wall_s;
        } else if (in_streak) {
            recovered_s += streak_s;
            ++recoveries;
            in_streak = false;
            streak_s = 0;
        }
    }
    if (!failed_any) {
        return 0.0;
    }
    if (recoveries == 0) {
        return std::nullopt;
    }
    return recovered_s / recoveries;
}

double wilson_upper(int hits, int n) {
    if (n <= 0) {
        return 0;
    }
    constexpr double z = 1.96;
    const double trials = n;
    const double p = hits / trials;
    const double z2 = z * z;
    const double centre = p + z2 / (2 * trials);
    const double spread = z * std::sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials));
    return std::min(1.0, (centre + spread) / (1 + z2 / trials));
}

bool unsafe_run(const json &request) {
    if (const auto found = request.find("outcome"); found != request.end() && found->is_string()) {
        const std::string outcome = found->get<std::string>();
        return outcome == "crashed" || outcome == "hung";
    }
    for (const auto &step : request.value("steps", json::array())) {
        const std::string status = step.value("status", "");
        if (status == "SG" || status == "OOM" || status == "TO") {
            return true;
        }
    }
    return false;
}

void CellTally::add_run(const json &request) {
    const json steps = request.value("steps", json::array());
    ++behaviours_[behaviour_of(steps)];
    ++outcomes_[outcome_of(request)];
    TalliedRun run;
    for (const auto &step : steps) {
        cpu_s_ += step.value("cpu_user_s", 0.0) + step.value("cpu_sys_s", 0.0);
        run.wall_s += step.value("wall_s", 0.0);
    }
    run.passed = request.value("passed", false);
    run.unsafe = unsafe_run(request);
    wall_s_ += run.wall_s;
    by_repetition_[request.value("repetition", static_cast<int64_t>(runs_))] = run;
    ++runs_;
    passes_ += run.passed ? 1 : 0;
    unsafe_ += run.unsafe ? 1 : 0;
}

CellFigures CellTally::figures() const {
    const auto counts_of = [](const auto &classes) {
        std::vector<int> counts;
        counts.reserve(classes.size());
        for (const auto &entry : classes) {
            counts.push_back(entry.second);
        }
        return counts;
    };
    CellFigures figures;
    figures.shannon_entropy = normalized_entropy(counts_of(behaviours_));
    figures.outcome_entropy = normalized_entropy(counts_of(outcomes_));
    if (passes_ > 0) {
        figures.cpu_s_per_pass = cpu_s_ / passes_;
        figures.efficiency = 1.0 / (1.0 + *figures.cpu_s_per_pass);
    }
    // Antifragility: does the workflow do better as the stress goes on? The pass rate of the
    // later half of the repetitions minus that of the earlier half (the middle run of an odd
    // count belongs to neither).
    const size_t count = by_repetition_.size();
    if (count >= 2) {
        const size_t half = count / 2;
        int early = 0;
        int late = 0;
        size_t index = 0;
        for (const auto &[repetition, run] : by_repetition_) {
            if (index < half) {
                early += run.passed ? 1 : 0;
            } else if (index >= count - half) {
                late += run.passed ? 1 : 0;
            }
            ++index;
        }
        figures.antifragility = static_cast<double>(late - early) / static_cast<double>(half);
    }
    if (wall_s_ > 0) {
        figures.throughput = passes_ / wall_s_;
    }
    figures.recovery_time = recovery_time(by_repetition_);
    if (runs_ > 0) {
        figures.safety_rating = 1.0 - static_cast<double>(unsafe_) / runs_;
    }
    figures.risk_index = wilson_upper(runs_ - passes_, runs_);
    return figures;
}

}  // namespace sbx::extended
