// Which scenarios errors leave without a verdict, and when a workflow is broken.
#include "engine/run_errors.hpp"

namespace sbx::engine {

namespace {

// Half or more of the cell's runs were errors: what is left is too little to judge by.
bool errors_dominate(const CellSummary &cell) {
    return cell.errored > 0 && 2 * cell.errored >= cell.runs;
}

std::string share_text(const CellSummary &cell, const char *flag) {
    return std::to_string(cell.errored) + " of " + std::to_string(cell.runs) + " " + flag + "-runs";
}

}  // namespace

std::string most_frequent_error(const CellSummary &cell) {
    std::string most;
    int count = 0;
    for (const auto &[error, runs] : cell.errors) {
        if (runs > count) {
            most = error;
            count = runs;
        }
    }
    return most;
}

std::string inconclusive_reason(const CellSummary &on, const CellSummary &off) {
    const bool both = on.errored > 0 && off.errored > 0;
    if (!both && !errors_dominate(on) && !errors_dominate(off)) {
        return "";
    }
    const std::string error = most_frequent_error(on.errored > 0 ? on : off);
    std::string shares;
    if (on.errored > 0) {
        shares = share_text(on, "on");
    }
    if (off.errored > 0) {
        shares += (shares.empty() ? "" : ", ") + share_text(off, "off");
    }
    return error + " (errors in " + shares + ")";
}

std::string broken_reason(const std::string &scenario, const CellSummary &on) {
    const int scored = on.scored_runs();
    if (scenario != "normal" || scored == 0 || on.passed != 0) {
        return "";
    }
    return "every run of normal failed (" + std::to_string(scored) + " of " +
           std::to_string(scored) + ")" +
           (on.failure_detail.empty() ? std::string() : ": " + on.failure_detail);
}

}  // namespace sbx::engine
