// Tallying a cell's runs and turning the tally into the cell's figures.
#include "cell_tally.hpp"

#include <sbx/random.hpp>

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

void CellTally::add_run(const json &request) {
    const json steps = request.value("steps", json::array());
    ++behaviours_[behaviour_of(steps)];
    ++outcomes_[outcome_of(request)];
    for (const auto &step : steps) {
        cpu_s_ += step.value("cpu_user_s", 0.0) + step.value("cpu_sys_s", 0.0);
    }
    const bool passed = request.value("passed", false);
    passed_by_repetition_[request.value("repetition", static_cast<int64_t>(runs_))] = passed;
    ++runs_;
    passes_ += passed ? 1 : 0;
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
    figures.failure_entropy = normalized_entropy(counts_of(outcomes_));
    if (passes_ > 0) {
        figures.cpu_s_per_pass = cpu_s_ / passes_;
        figures.efficiency = 1.0 / (1.0 + *figures.cpu_s_per_pass);
    }
    // Antifragility: does the workflow do better as the stress goes on? The pass rate of the
    // later half of the repetitions minus that of the earlier half (the middle run of an odd
    // count belongs to neither).
    const size_t count = passed_by_repetition_.size();
    if (count >= 2) {
        const size_t half = count / 2;
        int early = 0;
        int late = 0;
        size_t index = 0;
        for (const auto &[repetition, passed] : passed_by_repetition_) {
            if (index < half) {
                early += passed ? 1 : 0;
            } else if (index >= count - half) {
                late += passed ? 1 : 0;
            }
            ++index;
        }
        figures.antifragility = static_cast<double>(late - early) / static_cast<double>(half);
    }
    return figures;
}

}  // namespace sbx::extended
