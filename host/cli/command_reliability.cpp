// `show-reliability [--metric M] [--window N] [--json]`: how close each predictor's forecasts came
// to what then happened, per recorded series: rolling MAE, interval coverage, reliability.
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>

#include "cli_context.hpp"
#include "option_parsing.hpp"
#include "scoring/forecast_scores.hpp"
#include "store/forecast_records.hpp"
#include "util/errors.hpp"

namespace po = boost::program_options;

namespace sbx::cli {
namespace {

using nlohmann::json;

struct ReliabilityOptions {
    std::string metric = "roi";
    int window = 0;
    bool json = false;
};

ReliabilityOptions parse(const std::vector<std::string> &args) {
    ReliabilityOptions options;
    po::options_description description("show-reliability options");
    description.add_options()("metric", po::value(&options.metric),
                              "series of this metric (default roi; all: every series)")(
        "window", po::value(&options.window), "score the last N forecasts (default 0: all)")(
        "json", po::bool_switch(&options.json), "print the scores as JSON");
    parse_options("show-reliability", args, description);
    if (options.metric.empty()) {
        throw InputError(
            "show-reliability: --metric needs a metric name, e.g. --metric roi, or all");
    }
    if (options.window < 0) {
        throw InputError("show-reliability: --window " + std::to_string(options.window) +
                         " must be 0 (every forecast) or more");
    }
    return options;
}

std::string chosen_text(const std::map<std::string, size_t> &chosen) {
    std::string text;
    for (const auto &[method, count] : chosen) {
        text += (text.empty() ? "chose " : ", ") + method + " " + std::to_string(count) + "x";
    }
    return text;
}

void print(const std::vector<scoring::SubjectScores> &scores, int window) {
    for (const auto &subject : scores) {
        std::printf("%s\n", subject.subject.c_str());
        std::printf("  %-12s %6s %12s %16s %12s\n", "PREDICTOR", "PAIRS",
                    window > 0 ? ("MAE(last " + std::to_string(window) + ")").c_str() : "MAE",
                    "COVERAGE", "RELIABILITY");
        for (size_t i = 0; i < subject.predictors.size(); ++i) {
            const auto &score = subject.predictors[i];
            const auto coverage = score.coverage();
            char covered[48] = "no interval";
            if (coverage) {
                std::snprintf(covered, sizeof covered, "%zu/%zu %5.1f%%", score.covered,
                              score.intervals, 100 * *coverage);
            }
            std::printf("  %-12s %6zu %12.4f %16s %12.3f%s%s\n", score.predictor.c_str(),
                        score.pairs, score.mae, covered, score.reliability,
                        i == 0 && subject.predictors.size() > 1 ? "   best" : "",
                        score.chosen.empty() ? "" : ("   " + chosen_text(score.chosen)).c_str());
        }
    }
}

}  // namespace

int run_reliability_command(CliContext &context, const std::vector<std::string> &args) {
    const auto options = parse(args);
    const auto database = std::filesystem::path(context.settings.data_dir) / "metrics.db";
    const auto forecasts =
        store::scored_forecasts(database, options.metric == "all" ? "" : options.metric + ":");
    const auto scores = scoring::score_forecasts(forecasts, static_cast<size_t>(options.window));
    if (options.json) {
        std::cout << json{{"database", database.string()},
                          {"metric", options.metric},
                          {"window", options.window},
                          {"subjects", scoring::to_json(scores)}}
                         .dump(2)
                  << '\n';
        return kExitOk;
    }
    if (scores.empty()) {
        std::printf(
            "no forecast of %s has been paired with what followed yet in %s; each run of a "
            "cell forecasts its next point, so run a matrix at least twice\n",
            options.metric == "all" ? "any series" : ("'" + options.metric + "'").c_str(),
            database.string().c_str());
        return kExitOk;
    }
    print(scores, options.window);
    return kExitOk;
}

}  // namespace sbx::cli
