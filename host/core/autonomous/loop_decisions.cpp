#include "autonomous/loop_decisions.hpp"

#include <cmath>

#include "scoring/convergence.hpp"
#include "scoring/statistics.hpp"
#include "scoring/tracker.hpp"

namespace sbx::autonomous {

using nlohmann::json;

json LoopThresholds::to_json() const {
    const auto optional = [](const std::optional<double> &value) {
        return value ? json(*value) : json();
    };
    return {{"tolerance", tracker.tolerance},
            {"window", tracker.window},
            {"roi_cycles", tracker.roi_cycles},
            {"entropy_threshold", tracker.entropy_threshold},
            {"synergy_window", convergence.synergy_window},
            {"stationarity_confidence", convergence.stationarity_confidence},
            {"variance_confidence", convergence.variance_confidence},
            {"synergy_cycles", convergence.synergy_cycles},
            {"synergy_threshold", optional(convergence.synergy_threshold)},
            {"entropy_plateau_threshold", optional(convergence.entropy_plateau_threshold)},
            {"entropy_plateau_consecutive", convergence.entropy_plateau_consecutive},
            {"synergy_threshold_window", convergence.synergy_threshold_window},
            {"synergy_threshold_weight", optional(convergence.synergy_threshold_weight)},
            {"synergy_confidence", optional(convergence.synergy_confidence)},
            {"roi_confidence", optional(tracker.roi_confidence)},
            {"sources",
             {{"roi", sources.roi}, {"synergy", sources.synergy}, {"entropy", sources.entropy}}}};
}

LoopThresholds LoopThresholds::from_json(const json &kept) {
    LoopThresholds thresholds;
    thresholds.tracker.tolerance = kept.at("tolerance").get<double>();
    thresholds.tracker.window = kept.at("window").get<size_t>();
    thresholds.tracker.roi_cycles = kept.at("roi_cycles").get<int>();
    thresholds.tracker.entropy_threshold = kept.at("entropy_threshold").get<double>();
    auto &convergence = thresholds.convergence;
    convergence.synergy_window = kept.at("synergy_window").get<size_t>();
    convergence.stationarity_confidence = kept.at("stationarity_confidence").get<double>();
    convergence.variance_confidence = kept.at("variance_confidence").get<double>();
    convergence.synergy_cycles = kept.at("synergy_cycles").get<int>();
    if (kept.at("synergy_threshold").is_number()) {
        convergence.synergy_threshold = kept.at("synergy_threshold").get<double>();
    }
    if (kept.at("entropy_plateau_threshold").is_number()) {
        convergence.entropy_plateau_threshold = kept.at("entropy_plateau_threshold").get<double>();
    }
    convergence.entropy_plateau_consecutive = kept.at("entropy_plateau_consecutive").get<int>();
    // Loops saved before these knobs existed have none of them: the defaults.
    convergence.synergy_threshold_window = kept.value("synergy_threshold_window", size_t{0});
    const auto optional_of = [&](const char *key) {
        const auto found = kept.find(key);
        return found != kept.end() && found->is_number() ? std::optional(found->get<double>())
                                                         : std::nullopt;
    };
    convergence.synergy_threshold_weight = optional_of("synergy_threshold_weight");
    convergence.synergy_confidence = optional_of("synergy_confidence");
    thresholds.tracker.roi_confidence = optional_of("roi_confidence");
    const auto &sources = kept.at("sources");
    thresholds.sources = {sources.at("roi").get<std::string>(),
                          sources.at("synergy").get<std::string>(),
                          sources.at("entropy").get<std::string>()};
    if (thresholds.tracker.window < 1 || thresholds.tracker.roi_cycles < 1 ||
        convergence.synergy_window < 2 || convergence.synergy_cycles < 1 ||
        convergence.entropy_plateau_consecutive < 1) {
        throw json::other_error::create(501, "a threshold out of range", nullptr);
    }
    return thresholds;
}

double loop_roi_tolerance(const AutonomousState &state, double tolerance, bool given) {
    if (given) {
        return tolerance;
    }
    // Each iteration's forecast of a module's ROI, paired with the ROI the next one measured.
    std::vector<double> predicted;
    std::vector<double> actual;
    std::map<std::string, json> last_forecast;
    for (const auto &record : state.iterations) {
        for (const auto &[name, module] : record.modules) {
            const auto previous = last_forecast.find(name);
            if (previous != last_forecast.end() && previous->second.is_object() &&
                previous->second.value("value", json()).is_number()) {
                predicted.push_back(previous->second["value"].get<double>());
                actual.push_back(module.roi);
            }
            last_forecast[name] = module.forecast;
        }
    }
    return tolerance / scoring::Tracker::reliability(predicted, actual);
}

std::vector<double> synergy_forecast_errors(const AutonomousState &state) {
    std::vector<double> errors;
    json forecast;  // the previous iteration's forecast of this one's synergy
    for (const auto &record : state.iterations) {
        if (!record.synergy_roi) {
            continue;
        }
        const bool known = forecast.is_object() && forecast.value("value", json()).is_number();
        errors.push_back(known ? std::fabs(forecast["value"].get<double>() - *record.synergy_roi)
                               : std::nan(""));
        forecast = record.synergy_forecast;
    }
    return errors;
}

LoopDecisions decide(const AutonomousState &state, const std::vector<std::string> &modules,
                     const scoring::TrackerSettings &tracker_settings,
                     const scoring::ConvergenceSettings &convergence,
                     const ThresholdSources &sources) {
    LoopDecisions decisions;
    decisions.modules = modules;
    const int iteration = state.iterations.empty() ? 0 : state.iterations.back().iteration;
    auto settings = tracker_settings;
    settings.tolerance =
        loop_roi_tolerance(state, tracker_settings.tolerance, sources.roi != "history");
    decisions.roi_tolerance = settings.tolerance;
    const auto tracker = tracker_from_iterations(state, settings);
    const double threshold = tracker.diminishing();
    for (const auto &module : modules) {
        const auto deltas = scoring::last_values(tracker.module_deltas(module), settings.window);
        // Decided at the iteration's end: the tracker marks a module converged at the update
        // that completes its streak, and a later preset of the same iteration may still
        // have moved; the window must be within the threshold after all of them.
        const bool converged =
            tracker.converged(module) && std::fabs(scoring::mean(deltas)) <= threshold;
        if (converged) {
            decisions.converged_modules.push_back(module);
        } else {
            decisions.pending.push_back(module + " (ROI within the threshold for " +
                                        std::to_string(tracker.streak(module)) + " of " +
                                        std::to_string(settings.roi_cycles) + " cycles)");
        }
        decisions.log.push_back({{"iteration", iteration},
                                 {"kind", "roi"},
                                 {"subject", module},
                                 {"threshold", threshold},
                                 {"source", sources.roi},
                                 {"tolerance", settings.tolerance},
                                 {"value", std::fabs(scoring::mean(deltas))},
                                 {"streak", tracker.streak(module)},
                                 {"cycles", settings.roi_cycles},
                                 {"converged", converged}});

        const auto entropy = module_series(state, module, &ModuleIteration::entropy);
        const auto plateau = scoring::check_entropy_plateau(entropy, convergence);
        const bool plateaued = scoring::entropy_plateaued(entropy, convergence);
        const bool ceiling = tracker.entropy_complete(module);
        if (plateaued || ceiling) {
            decisions.plateaued_modules.push_back(module);
        }
        json entry{{"iteration", iteration},
                   {"kind", "entropy"},
                   {"subject", module},
                   {"source", sources.entropy},
                   {"entropy", entropy.empty() ? json() : json(entropy.back())},
                   {"consecutive", convergence.entropy_plateau_consecutive},
                   {"plateaued", plateaued},
                   {"ceiling_threshold", tracker_settings.entropy_threshold},
                   {"ceiling_reached", ceiling}};
        entry["threshold"] = plateau ? json(plateau->threshold) : json();
        entry["change"] = plateau ? json(plateau->change) : json();
        decisions.log.push_back(entry);
    }

    const auto synergy = synergy_series(state);
    decisions.has_synergy = !synergy.empty();
    if (decisions.has_synergy) {
        const auto errors = synergy_forecast_errors(state);
        const auto check = scoring::check_synergy(synergy, convergence, errors);
        decisions.synergy_converged = scoring::synergy_converged(synergy, convergence, errors);
        decisions.synergy_reason = check.reason;
        if (!decisions.synergy_converged) {
            decisions.pending.push_back("synergy_roi (" + check.reason + ")");
        }
        json entry{{"iteration", iteration},
                   {"kind", "synergy"},
                   {"subject", "synergy_roi"},
                   {"threshold", check.threshold},
                   {"source", sources.synergy},
                   {"recent_mean", check.recent_mean},
                   {"previous_mean", check.previous_mean},
                   {"stable", check.stable},
                   {"cycles", convergence.synergy_cycles},
                   {"converged", decisions.synergy_converged},
                   {"reason", check.reason}};
        entry["adf_p"] = check.stationarity ? json(check.stationarity->p_value) : json();
        entry["levene_p"] = check.variance ? json(check.variance->p_value) : json();
        entry["threshold_basis"] = check.threshold_basis;
        entry["mean_shift_p"] = check.mean_shift_p ? json(*check.mean_shift_p) : json();
        decisions.log.push_back(entry);
    }

    const bool all_converged = decisions.converged_modules.size() == modules.size() &&
                               (!decisions.has_synergy || decisions.synergy_converged);
    if (all_converged) {
        decisions.stop_reason = "converged: every module's ROI" +
                                std::string(decisions.has_synergy ? " and the synergy" : "") +
                                " stopped changing";
    } else if (!modules.empty() && decisions.plateaued_modules.size() == modules.size()) {
        decisions.stop_reason =
            "entropy plateau: the outcomes of every module stopped changing, nothing new is "
            "being learned";
    }
    return decisions;
}

}  // namespace sbx::autonomous
