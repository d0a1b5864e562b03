// Folding per-run metric values into a cell's value.
#include "plugins/metric_aggregation.hpp"

#include <algorithm>

namespace sbx::plugins {
namespace {

constexpr const char *kNames[] = {"mean", "max", "min", "sum", "last"};

struct Fold {
    double total = 0;
    double extreme_max = 0;
    double extreme_min = 0;
    double last = 0;
    int count = 0;

    void add(double value) {
        extreme_max = count == 0 ? value : std::max(extreme_max, value);
        extreme_min = count == 0 ? value : std::min(extreme_min, value);
        total += value;
        last = value;
        ++count;
    }
    [[nodiscard]] double result(Aggregation aggregation, size_t runs) const {
        switch (aggregation) {
            case Aggregation::max:
                return extreme_max;
            case Aggregation::min:
                return extreme_min;
            case Aggregation::sum:
                return total;
            case Aggregation::last:
                return last;
            case Aggregation::mean:
                break;
        }
        // A run without the metric counts as 0: the host's own sparse metrics (outcome
        // classes, failure tags) are rates over the cell's runs.
        return runs == 0 ? 0.0 : total / static_cast<double>(runs);
    }
};

}  // namespace

const char *aggregation_name(Aggregation aggregation) {
    return kNames[static_cast<uint8_t>(aggregation)];
}

std::optional<Aggregation> parse_aggregation(const std::string &name) {
    for (size_t i = 0; i < sizeof(kNames) / sizeof(kNames[0]); ++i) {
        if (name == kNames[i]) {
            return static_cast<Aggregation>(i);
        }
    }
    return std::nullopt;
}

std::map<std::string, double> aggregate_runs(
    const std::vector<const std::map<std::string, double> *> &runs,
    const std::map<std::string, Aggregation> &declared) {
    std::map<std::string, Fold> folds;
    for (const auto *run : runs) {
        for (const auto &[name, value] : *run) {
            folds[name].add(value);
        }
    }
    std::map<std::string, double> cell;
    for (const auto &[name, fold] : folds) {
        const auto found = declared.find(name);
        cell[name] =
            fold.result(found == declared.end() ? Aggregation::mean : found->second, runs.size());
    }
    return cell;
}

}  // namespace sbx::plugins
