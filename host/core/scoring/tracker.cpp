// Convergence, the entropy ceiling, rankings and forecast accuracy of the ROI tracker.
// Rationale for requiring a full window before a streak can grow: the mean of one or two
// deltas says little, and a module whose first small change happened to be tiny must not
// converge after roi_cycles updates while its window is still filling.
#include "scoring/tracker.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "scoring/mean_tests.hpp"
#include "scoring/statistics.hpp"

namespace sbx::scoring {

namespace {

// Smoothing of the reliability EMA (docs/semantics.md: EMA₀.₃).
constexpr double kReliabilityAlpha = 0.3;

// |predicted[i] − actual[i]| for every i both have.
std::vector<double> absolute_errors(const std::vector<double> &predicted,
                                    const std::vector<double> &actual) {
    std::vector<double> errors;
    for (size_t i = 0; i < std::min(predicted.size(), actual.size()); ++i) {
        errors.push_back(std::abs(predicted[i] - actual[i]));
    }
    return errors;
}

}  // namespace

Tracker::Tracker(TrackerSettings settings) : settings_(settings) {
    if (settings_.window < 1 || settings_.roi_cycles < 1 || !(settings_.tolerance >= 0) ||
        !(settings_.entropy_threshold >= 0)) {
        throw std::invalid_argument(
            "tracker settings need window >= 1, roi_cycles >= 1, tolerance >= 0 and "
            "entropy_threshold >= 0");
    }
}

void Tracker::update(double roi_before, double roi_after, const std::vector<std::string> &modules,
                     const std::map<std::string, double> &metrics) {
    const double delta = roi_after - roi_before;
    deltas_.push_back(delta);
    metrics_history_.push_back(metrics);
    const std::set<std::string> touched(modules.begin(), modules.end());
    for (const std::string &module : touched) {
        modules_[module].roi_deltas.push_back(delta);
    }
    // One threshold for the whole cycle, from the history including this cycle.
    const double threshold = diminishing();
    for (const std::string &module : touched) {
        update_streak(module, modules_[module], threshold);
    }
}

void Tracker::update_streak(const std::string &module, ModuleHistory &history, double threshold) {
    if (converged_.count(module) != 0) {
        return;
    }
    const bool full_window = history.roi_deltas.size() >= settings_.window;
    const auto recent = last_values(history.roi_deltas, settings_.window);
    bool within = full_window && std::abs(mean(recent)) <= threshold;
    if (within && settings_.roi_confidence) {
        // ROI_CONFIDENCE: within by an equivalence test too, not by the mean alone.
        const auto p = within_margin_t_test(recent, threshold);
        within = p && *p < 1 - *settings_.roi_confidence;
    }
    if (within) {
        ++history.streak;
    } else {
        history.streak = 0;
    }
    if (history.streak >= settings_.roi_cycles) {
        converged_.insert(module);
    }
}

void Tracker::update_entropy(const std::string &module, double entropy_delta) {
    modules_[module].entropy_deltas.push_back(entropy_delta);
}

void Tracker::record_raroi(const std::string &module, double raroi) {
    modules_[module].raroi.push_back(raroi);
}

double Tracker::diminishing() const {
    return settings_.tolerance * (1 + population_stddev(last_values(deltas_, settings_.window)));
}

bool Tracker::converged(const std::string &module) const {
    return converged_.count(module) != 0;
}

std::vector<std::string> Tracker::converged_modules() const {
    return {converged_.begin(), converged_.end()};
}

int Tracker::streak(const std::string &module) const {
    auto found = modules_.find(module);
    return found == modules_.end() ? 0 : found->second.streak;
}

bool Tracker::entropy_complete(const std::string &module) const {
    auto found = modules_.find(module);
    if (settings_.entropy_threshold <= 0 || found == modules_.end()) {
        return false;
    }
    const ModuleHistory &history = found->second;
    const size_t pairs = std::min(history.roi_deltas.size(), history.entropy_deltas.size());
    if (pairs < settings_.window) {
        return false;
    }
    std::vector<double> roi_per_entropy;
    for (size_t i = pairs - settings_.window; i < pairs; ++i) {
        // No entropy change gives no ratio: skipping it beats dividing by zero.
        if (history.entropy_deltas[i] != 0) {
            roi_per_entropy.push_back(std::abs(history.roi_deltas[i]) /
                                      std::abs(history.entropy_deltas[i]));
        }
    }
    return !roi_per_entropy.empty() && mean(roi_per_entropy) < settings_.entropy_threshold;
}

std::vector<ModuleRanking> Tracker::rankings() const {
    std::vector<ModuleRanking> out;
    for (const auto &[module, history] : modules_) {
        out.push_back({module, sum(history.raroi), sum(history.roi_deltas)});
    }
    std::sort(out.begin(), out.end(), [](const ModuleRanking &a, const ModuleRanking &b) {
        return a.raroi_total != b.raroi_total ? a.raroi_total > b.raroi_total : a.module < b.module;
    });
    return out;
}

std::vector<double> Tracker::module_deltas(const std::string &module) const {
    auto found = modules_.find(module);
    return found == modules_.end() ? std::vector<double>{} : found->second.roi_deltas;
}

double Tracker::rolling_mae(const std::vector<double> &predicted, const std::vector<double> &actual,
                            size_t window) {
    const std::vector<double> errors = absolute_errors(predicted, actual);
    return mean(window == 0 ? errors : last_values(errors, window));
}

double Tracker::reliability(const std::vector<double> &predicted,
                            const std::vector<double> &actual) {
    return 1 /
           (1 + exponential_moving_average(absolute_errors(predicted, actual), kReliabilityAlpha));
}

}  // namespace sbx::scoring
