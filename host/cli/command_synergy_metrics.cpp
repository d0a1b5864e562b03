// `synergy-metrics [--window N] [--plot FILE.svg] [--json]`: the newest value of each
// synergy metric recorded in metrics.db, beside its exponential moving average over the
// last N values; --plot draws both as a bar chart. Reads only: with no database yet it
// says so and creates nothing.
#include <boost/program_options.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "cli_context.hpp"
#include "option_parsing.hpp"
#include "output_file.hpp"
#include "reports/svg_chart.hpp"
#include "scoring/statistics.hpp"
#include "store/read_only_database.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"

namespace po = boost::program_options;

namespace sbx::cli {
namespace {

constexpr const char *kCommand = "synergy-metrics";

struct SynergyOptions {
    int window = 5;
    std::string plot;  // "" = no chart
    bool json = false;
};

SynergyOptions parse(const std::vector<std::string> &args) {
    SynergyOptions options;
    po::options_description description("synergy-metrics options");
    description.add_options()("window", po::value(&options.window),
                              "EMA over the last N values (default 5)")(
        "plot", po::value(&options.plot), "write a bar chart to FILE.svg")(
        "json", po::bool_switch(&options.json), "print JSON");
    const auto given = parse_options(kCommand, args, description);
    if (options.window < 1) {
        throw InputError(std::string(kCommand) + ": --window " + std::to_string(options.window) +
                         " is too small; pass 1 or more values to average, e.g. --window 5");
    }
    if (given.count("plot") != 0) {
        check_output_file(options.plot, std::string(kCommand) + ": --plot", "synergy.svg");
    }
    return options;
}

// Each metric's values in session order. A session that recorded a metric for several
// subjects or scenarios (workflow sets and sections, one row per preset) contributes their
// mean: one point per session, so that the window counts simulations rather than presets.
// NaN is stored as NULL, which AVG skips; a session left with no value, or an infinite
// one, adds no point.
std::map<std::string, std::vector<double>> synergy_histories(store::Connection &connection) {
    std::map<std::string, std::vector<double>> histories;
    store::Statement query(connection.get(),
                           "SELECT name, AVG(value) FROM synergy GROUP BY name, session_id "
                           "ORDER BY name, session_id");
    while (query.step()) {
        if (!query.column_is_null(1) && std::isfinite(query.column_double(1))) {
            histories[query.column_text(0)].push_back(query.column_double(1));
        }
    }
    return histories;
}

struct Summary {
    double latest = 0;
    double ema = 0;
    size_t points = 0;  // sessions that recorded the metric
};

// alpha = 2 / (N + 1), the usual choice that gives an N-value EMA the same centre of mass
// as an N-value simple average; started at the oldest of the last N values, so a short
// history is averaged over what there is and older values weigh nothing.
Summary summarize(const std::vector<double> &history, int window) {
    const auto size = static_cast<size_t>(window);
    const double alpha = 2.0 / (window + 1.0);
    return {history.back(),
            scoring::exponential_moving_average(scoring::last_values(history, size), alpha),
            history.size()};
}

void print_table(const std::map<std::string, Summary> &summaries, int window) {
    size_t width = 6;  // "metric"
    for (const auto &entry : summaries) {
        width = std::max(width, entry.first.size());
    }
    const std::string ema_header = "ema(" + std::to_string(window) + ")";
    std::printf("%-*s  %10s  %10s\n", static_cast<int>(width), "metric", "latest",
                ema_header.c_str());
    for (const auto &[name, summary] : summaries) {
        std::printf("%-*s  %10.3f  %10.3f\n", static_cast<int>(width), name.c_str(), summary.latest,
                    summary.ema);
    }
}

nlohmann::ordered_json to_json(const std::map<std::string, Summary> &summaries, int window) {
    nlohmann::ordered_json metrics = nlohmann::ordered_json::object();
    for (const auto &[name, summary] : summaries) {
        metrics[name] = {
            {"latest", summary.latest}, {"ema", summary.ema}, {"points", summary.points}};
    }
    return {{"window", window}, {"metrics", metrics}};
}

// Two bars per metric, side by side: the newest value and its EMA.
std::string bar_chart(const std::map<std::string, Summary> &summaries, int window) {
    reports::BarChart chart;
    chart.title = "synergy metrics: latest and EMA over " + std::to_string(window) + " values";
    chart.y_label = "synergy (combined - mean of parts)";
    const std::string ema_series = "ema(" + std::to_string(window) + ")";
    for (const auto &[name, summary] : summaries) {
        chart.bars.push_back({name, summary.latest, "latest"});
        chart.bars.push_back({name, summary.ema, ema_series});
    }
    return reports::render_bar_chart(chart);
}

}  // namespace

int run_synergy_metrics_command(CliContext &context, const std::vector<std::string> &args) {
    const auto options = parse(args);
    const auto database = std::filesystem::path(context.settings.data_dir) / "metrics.db";
    std::map<std::string, std::vector<double>> histories;
    // Read-only, and no file is no database (never created): version 2 added the table.
    constexpr int kSynergyTableVersion = 2;
    if (const auto connection = store::open_read_only(database, kSynergyTableVersion)) {
        histories = synergy_histories(*connection);
    }
    std::map<std::string, Summary> summaries;
    for (const auto &[name, history] : histories) {
        summaries[name] = summarize(history, options.window);
    }

    if (options.json) {
        std::cout << to_json(summaries, options.window)
                         .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                  << '\n';
    } else if (summaries.empty()) {
        std::printf(
            "nothing recorded yet: no synergy values in %s; `run --all-workflows` and `run "
            "--sections` record them\n",
            database.string().c_str());
    } else {
        print_table(summaries, options.window);
    }
    if (options.plot.empty()) {
        return kExitOk;
    }
    // Nothing recorded, nothing written: a read-only command leaves no file behind.
    if (summaries.empty()) {
        std::cerr << kCommand << ": nothing to plot; " << options.plot << " not written\n";
        return kExitOk;
    }
    write_file_atomically(options.plot, bar_chart(summaries, options.window));
    if (!options.json) {
        std::printf("chart written to %s\n", options.plot.c_str());
    }
    return kExitOk;
}

}  // namespace sbx::cli
