// The Prometheus text exposition (version 0.0.4) of what metrics.db and the state folder
// hold, and of the live matrix: the gauges and counters `--metrics-port`, METRICS_PORT and
// the dashboard's /metrics serve. Names follow Prometheus conventions: the
// `sandbox_runner_` prefix, base units, `_total` for counters, labels for dimensions.
#pragma once

#include <filesystem>
#include <string>

namespace sbx::dashboard {

std::string prometheus_exposition(const std::filesystem::path &data_dir);

// A label value escaped as the exposition format wants (\\, \", \n).
std::string label_value(const std::string &text);

}  // namespace sbx::dashboard
