#include "scoring/forecast_scores.hpp"

#include <spdlog/spdlog.h>
#include <algorithm>

#include "scoring/tracker.hpp"

namespace sbx::scoring {

std::optional<double> PredictorScore::coverage() const {
    return intervals == 0
               ? std::nullopt
               : std::optional(static_cast<double>(covered) / static_cast<double>(intervals));
}

namespace {

PredictorScore score_one(const std::string &predictor,
                         const std::vector<const store::ScoredForecast *> &pairs, size_t window) {
    PredictorScore score;
    score.predictor = predictor;
    std::vector<double> predicted;
    std::vector<double> actual;
    for (const auto *pair : pairs) {
        predicted.push_back(pair->value);
        actual.push_back(pair->actual);
    }
    score.mae = Tracker::rolling_mae(predicted, actual, window);
    score.reliability = Tracker::reliability(predicted, actual);
    const size_t first = window == 0 || pairs.size() <= window ? 0 : pairs.size() - window;
    for (size_t i = first; i < pairs.size(); ++i) {
        const auto &pair = *pairs[i];
        ++score.pairs;
        if (pair.lower && pair.upper) {
            ++score.intervals;
            score.covered += *pair.lower <= pair.actual && pair.actual <= *pair.upper ? 1 : 0;
        }
        if (!pair.chosen.empty()) {
            ++score.chosen[pair.chosen];
        }
    }
    return score;
}

}  // namespace

std::vector<SubjectScores> score_forecasts(const std::vector<store::ScoredForecast> &forecasts,
                                           size_t window) {
    std::map<std::string, std::map<std::string, std::vector<const store::ScoredForecast *>>>
        grouped;
    for (const auto &forecast : forecasts) {
        grouped[forecast.subject][forecast.predictor].push_back(&forecast);
    }
    std::vector<SubjectScores> scores;
    for (const auto &[subject, by_predictor] : grouped) {
        SubjectScores entry{subject, {}};
        for (const auto &[predictor, pairs] : by_predictor) {
            entry.predictors.push_back(score_one(predictor, pairs, window));
        }
        std::stable_sort(
            entry.predictors.begin(), entry.predictors.end(),
            [](const PredictorScore &a, const PredictorScore &b) { return a.mae < b.mae; });
        scores.push_back(std::move(entry));
    }
    return scores;
}

double adapted_tolerance(double base, const std::vector<store::ScoredForecast> &forecasts) {
    std::vector<double> predicted;
    std::vector<double> actual;
    for (const auto &forecast : forecasts) {
        if (forecast.shown && forecast.subject.rfind("roi:", 0) == 0) {
            predicted.push_back(forecast.value);
            actual.push_back(forecast.actual);
        }
    }
    return base / Tracker::reliability(predicted, actual);
}

TrackerSettings with_adapted_tolerance(TrackerSettings settings, store::Store &store) {
    const double adapted =
        adapted_tolerance(settings.tolerance, store::scored_forecasts(store, "roi:"));
    if (adapted != settings.tolerance) {
        spdlog::debug("ROI tolerance {:.4g} widened to {:.4g} by the error of past ROI forecasts",
                      settings.tolerance, adapted);
        settings.tolerance = adapted;
    }
    return settings;
}

nlohmann::json to_json(const std::vector<SubjectScores> &scores) {
    using nlohmann::json;
    json subjects = json::array();
    for (const auto &subject : scores) {
        json predictors = json::array();
        for (const auto &score : subject.predictors) {
            const auto coverage = score.coverage();
            predictors.push_back({{"predictor", score.predictor},
                                  {"pairs", score.pairs},
                                  {"mae", score.mae},
                                  {"intervals", score.intervals},
                                  {"covered", score.covered},
                                  {"coverage", coverage ? json(*coverage) : json()},
                                  {"reliability", score.reliability},
                                  {"chosen", score.chosen}});
        }
        subjects.push_back({{"subject", subject.subject}, {"predictors", predictors}});
    }
    return subjects;
}

}  // namespace sbx::scoring
