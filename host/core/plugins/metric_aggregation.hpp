// How a metric's per-run values become its cell's value: the mean unless the collector
// declares otherwise in its answer ({"peak_ms": {"value": 41, "aggregate": "max"}}).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sbx::plugins {

enum class Aggregation : uint8_t { mean, max, min, sum, last };

const char *aggregation_name(Aggregation aggregation);
std::optional<Aggregation> parse_aggregation(const std::string &name);

// The cell's value of each metric from its runs' values, in repetition order. The mean is
// over all the runs (a run without the metric adds 0: the host's sparse metrics are rates);
// max, min, sum and last fold only the runs that have it.
std::map<std::string, double> aggregate_runs(
    const std::vector<const std::map<std::string, double> *> &runs,
    const std::map<std::string, Aggregation> &declared);

}  // namespace sbx::plugins
