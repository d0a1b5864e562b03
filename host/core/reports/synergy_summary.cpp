// Summarizing the synergy metrics of metrics.db.
#include "reports/synergy_summary.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "reports/svg_chart.hpp"
#include "scoring/statistics.hpp"
#include "store/read_only_database.hpp"
#include "util/text_format.hpp"

namespace sbx::reports {
namespace {

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

// alpha = 2 / (N + 1), the usual choice that gives an N-value EMA the same centre of mass
// as an N-value simple average; started at the oldest of the last N values, so a short
// history is averaged over what there is and older values weigh nothing.
SynergySummary summarize(const std::vector<double> &history, int window) {
    const auto size = static_cast<size_t>(window);
    const double alpha = 2.0 / (window + 1.0);
    return {history.back(),
            scoring::exponential_moving_average(scoring::last_values(history, size), alpha),
            history.size()};
}

}  // namespace

std::map<std::string, SynergySummary> summarize_synergy(const std::filesystem::path &database,
                                                        int window) {
    std::map<std::string, std::vector<double>> histories;
    // Read-only, and no file is no database (never created): version 2 added the table.
    constexpr int kSynergyTableVersion = 2;
    if (const auto connection = store::open_read_only(database, kSynergyTableVersion)) {
        histories = synergy_histories(*connection);
    }
    std::map<std::string, SynergySummary> summaries;
    for (const auto &[name, history] : histories) {
        summaries[name] = summarize(history, window);
    }
    return summaries;
}

std::string synergy_bar_chart(const std::map<std::string, SynergySummary> &summaries, int window) {
    BarChart chart;
    chart.title = "synergy metrics: latest and EMA over " + std::to_string(window) + " values";
    chart.y_label = "synergy (combined - mean of parts)";
    const std::string ema_series = "ema(" + std::to_string(window) + ")";
    for (const auto &[name, summary] : summaries) {
        chart.bars.push_back({name, summary.latest, "latest"});
        chart.bars.push_back({name, summary.ema, ema_series});
    }
    return render_bar_chart(chart);
}

nlohmann::ordered_json synergy_summary_json(const std::map<std::string, SynergySummary> &summaries,
                                            int window) {
    nlohmann::ordered_json metrics = nlohmann::ordered_json::object();
    for (const auto &[name, summary] : summaries) {
        metrics[name] = {
            {"latest", summary.latest}, {"ema", summary.ema}, {"points", summary.points}};
    }
    return {{"window", window}, {"metrics", metrics}};
}

std::string synergy_summary_table(const std::map<std::string, SynergySummary> &summaries,
                                  int window) {
    int width = 6;  // "metric"
    for (const auto &entry : summaries) {
        width = std::max(width, static_cast<int>(entry.first.size()));
    }
    const std::string ema_header = "ema(" + std::to_string(window) + ")";
    std::string table =
        util::format_text("%-*s  %10s  %10s\n", width, "metric", "latest", ema_header.c_str());
    for (const auto &[name, summary] : summaries) {
        table += util::format_text("%-*s  %10.3f  %10.3f\n", width, name.c_str(), summary.latest,
                                   summary.ema);
    }
    return table;
}

}  // namespace sbx::reports
