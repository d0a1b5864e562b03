#include "engine/boundary_search.hpp"

#include <algorithm>
#include <cmath>

namespace sbx::engine {
namespace {

// True once `holds` and `breaks` are within the axis's precision.
bool narrow_enough(const presets::BoundaryAxis &axis, double holds, double breaks) {
    if (axis.geometric) {
        return std::max(holds, breaks) / std::min(holds, breaks) <= axis.precision + 1e-12;
    }
    return std::fabs(breaks - holds) <= axis.precision + 1e-12;
}

// A setting strictly between `holds` and `breaks`, or none when there is none to probe (two
// neighbouring whole numbers, or doubles too close to have one between them).
std::optional<double> middle(const presets::BoundaryAxis &axis, double holds, double breaks) {
    double value = axis.geometric ? std::sqrt(holds * breaks) : (holds + breaks) / 2;
    if (axis.integer) {
        value = std::round(value);
        if (value == holds || value == breaks) {
            value = holds + (breaks > holds ? 1 : -1);
        }
    }
    if (!(std::min(holds, breaks) < value && value < std::max(holds, breaks))) {
        return std::nullopt;
    }
    return value;
}

}  // namespace

BoundaryResult bisect_boundary(const presets::BoundaryAxis &axis, const ProbeFunction &probe,
                               std::optional<std::pair<double, double>> known) {
    BoundaryResult result;
    const auto run = [&](double value) {
        result.probes.push_back(probe(value));
        return result.probes.back().broke;
    };
    double holds = axis.mild;
    double breaks = axis.harsh;
    bool bracketed = false;
    if (known && !run(known->first) && run(known->second)) {
        holds = known->first;
        breaks = known->second;
        bracketed = true;
    }
    if (!bracketed) {
        if (run(axis.mild)) {
            result.kind = BoundaryResult::Kind::breaks_everywhere;
            result.breaks = axis.mild;
            return result;
        }
        if (!run(axis.harsh)) {
            result.kind = BoundaryResult::Kind::holds_everywhere;
            result.holds = axis.harsh;
            return result;
        }
    }
    while (!narrow_enough(axis, holds, breaks)) {
        const auto value = middle(axis, holds, breaks);
        if (!value) {
            break;
        }
        (run(*value) ? breaks : holds) = *value;
    }
    result.holds = holds;
    result.breaks = breaks;
    return result;
}

std::vector<double> grid_values(const presets::BoundaryAxis &axis) {
    std::vector<double> values;
    const double direction = axis.harsh > axis.mild ? 1 : -1;
    double value = axis.mild;
    while (true) {
        values.push_back(value);
        if (value == axis.harsh) {
            break;
        }
        double next = axis.geometric
                          ? (direction > 0 ? value * axis.precision : value / axis.precision)
                          : value + direction * axis.precision;
        if (axis.integer) {
            next = std::round(next);
            if (next == value) {
                next = value + direction;
            }
        }
        if (next == value) {
            next = axis.harsh;  // a step below the doubles' resolution: the grid ends
        }
        value = direction * (next - axis.harsh) >= 0 ? axis.harsh : next;
    }
    return values;
}

BoundaryResult scan_boundary(const presets::BoundaryAxis &axis, const ProbeFunction &probe) {
    BoundaryResult result;
    const auto values = grid_values(axis);
    for (size_t i = 0; i < values.size(); ++i) {
        result.probes.push_back(probe(values[i]));
        if (result.probes.back().broke) {
            if (i == 0) {
                result.kind = BoundaryResult::Kind::breaks_everywhere;
            } else {
                result.holds = values[i - 1];
            }
            result.breaks = values[i];
            return result;
        }
    }
    result.kind = BoundaryResult::Kind::holds_everywhere;
    result.holds = axis.harsh;
    return result;
}

std::string describe_boundary(const presets::BoundaryAxis &axis, const BoundaryResult &result) {
    const bool larger_is_harsher = axis.harsh > axis.mild;
    const auto text = [&](double value) { return presets::axis_value_text(axis, value); };
    switch (result.kind) {
        case BoundaryResult::Kind::holds_everywhere:
            return "holds at every " + axis.key + (larger_is_harsher ? " up to " : " down to ") +
                   text(axis.harsh);
        case BoundaryResult::Kind::breaks_everywhere:
            return "breaks already at " + axis.key + " = " + text(axis.mild) +
                   ", the mildest setting tried";
        case BoundaryResult::Kind::found:
            break;
    }
    return "breaks at " + axis.key + (larger_is_harsher ? " >= " : " <= ") + text(result.breaks) +
           "; holds at " + axis.key + (larger_is_harsher ? " <= " : " >= ") + text(result.holds);
}

}  // namespace sbx::engine
