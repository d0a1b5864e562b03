// show-synergy: each synergy metric recorded in metrics.db, its newest value beside its
// exponential moving average over the last N sessions, and their bar chart. Reads only.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace sbx::reports {

struct SynergySummary {
    double latest = 0;
    double ema = 0;
    size_t points = 0;  // sessions that recorded the metric
};

// Each metric's summary over the last `window` values; {} when `database` does not exist
// (it is never created) or predates the synergy table.
std::map<std::string, SynergySummary> summarize_synergy(const std::filesystem::path &database,
                                                        int window);

// {"window": N, "metrics": {NAME: {"latest", "ema", "points"}}}, metrics by name.
nlohmann::ordered_json synergy_summary_json(const std::map<std::string, SynergySummary> &summaries,
                                            int window);
// A table: "metric", "latest" and "ema(N)" columns, three decimals, a row per metric; the
// name column as wide as the longest name.
std::string synergy_summary_table(const std::map<std::string, SynergySummary> &summaries,
                                  int window);

// Two bars per metric, side by side: the newest value and its EMA (an SVG).
std::string synergy_bar_chart(const std::map<std::string, SynergySummary> &summaries, int window);

}  // namespace sbx::reports
