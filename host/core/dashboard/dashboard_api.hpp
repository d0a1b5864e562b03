// The dashboard's JSON API: the original tool's /roi (ROI and deltas per scenario over
// sessions) and /metrics/NAME (each series with `predicted` and `actual` arrays), and
// what a client needs besides: the sessions, one session's report, the live progress.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace sbx::dashboard {

// {"workflows": {W: {S: {"session": [...], "roi_on": [...], "roi_off": [...],
//  "roi_delta": [...], "raroi_delta": [...]}}}}, oldest first.
nlohmann::json roi_json(const std::filesystem::path &data_dir);

// {"metric": NAME, "series": {SUBJECT: {"points": [...], "predicted": [...],
//  "actual": [...], "lower": [...], "upper": [...], "method": [...]}}}: the shown
// predictor's forecasts of every series of that metric ("roi" included); an actual is null
// until the series has its next point.
nlohmann::json metric_json(const std::filesystem::path &data_dir, const std::string &metric);

// {"sessions": [{id, command, status, started_at, finished_at, runs, failed}], newest first}
nlohmann::json sessions_json(const std::filesystem::path &data_dir);

// The live matrix of this process and the running sessions.
nlohmann::json progress_json(const std::filesystem::path &data_dir);

}  // namespace sbx::dashboard
