// The autonomous loop's text: iteration lines and the final report, printf-formatted so the
// columns line up as they always have.
#include "autonomous/loop_report_text.hpp"

#include "autonomous/iteration_presets.hpp"
#include "reports/module_rankings.hpp"
#include "util/text_format.hpp"

namespace sbx::autonomous {
namespace {

using nlohmann::json;
using util::format_text;

std::string plural(size_t count) {
    return count == 1 ? "" : "s";
}

// The forecast's value, cut to five characters, or "-" when the predictor gave none.
std::string forecast_text(const json &forecast) {
    const auto value = forecast.is_object() ? forecast.value("value", json()) : json();
    return value.is_number() ? std::to_string(value.get<double>()).substr(0, 5) : "-";
}

std::string converged_text(const LoopDecisions &decisions) {
    if (decisions.converged_modules.empty()) {
        return "none yet";
    }
    std::string names;
    for (const auto &name : decisions.converged_modules) {
        names += (names.empty() ? "" : ", ") + name;
    }
    return names;
}

std::string final_metrics_text(const json &report) {
    std::string text = "\nfinal metrics\n";
    for (const auto &[name, module] : report["modules"].items()) {
        if (module["roi"].is_null()) {
            text += format_text("  %-28s never ran\n", name.c_str());
            continue;
        }
        text +=
            format_text("  %-28s roi %.3f   mean roi %.3f   entropy %.3f   passed %d of %d runs\n",
                        name.c_str(), module["roi"].get<double>(), module["mean_roi"].get<double>(),
                        module["entropy"].get<double>(), module["passed"].get<int>(),
                        module["runs"].get<int>());
    }
    if (report["synergy_roi"].is_number()) {
        text += format_text("  %-28s %+.3f\n", "synergy_roi", report["synergy_roi"].get<double>());
    }
    return text;
}

std::string foresight_text(const json &report) {
    std::string text = "\nforesight (foresight_history.json)\n";
    if (report["foresight"].empty()) {
        text += "  no trajectory recorded yet; simulate-temporal-trajectory records one\n";
    }
    for (const auto &trend : report["foresight"]) {
        text += format_text(
            "  %-28s %d cycles, resilience %s (%+.3f per cycle), stability %.3f %s\n",
            trend["workflow"].get<std::string>().c_str(), trend["cycles"].get<int>(),
            trend["direction"].get<std::string>().c_str(), trend["resilience_slope"].get<double>(),
            trend["latest_stability"].get<double>(),
            trend["stable"].get<bool>() ? "(holds)" : "(below its mean)");
    }
    return text;
}

}  // namespace

std::string iteration_text(const IterationRecord &record, int max_iterations,
                           const LoopDecisions &decisions, double seconds) {
    std::string text =
        format_text("iteration %d/%d: %zu preset%s, %zu module%s, %.1f s\n", record.iteration,
                    max_iterations, record.presets.size(), plural(record.presets.size()).c_str(),
                    record.modules.size(), plural(record.modules.size()).c_str(), seconds);
    if (const auto adapted = adaptation_summary(record.adaptation); !adapted.empty()) {
        text += "  " + adapted + "\n";
    }
    for (const auto &[name, module] : record.modules) {
        text += format_text("  %-28s roi %.3f  entropy %.3f  next %s\n", name.c_str(), module.roi,
                            module.entropy, forecast_text(module.forecast).c_str());
    }
    if (record.synergy_roi) {
        text += format_text("  %-28s %+.3f\n", "synergy_roi", *record.synergy_roi);
    }
    return text + "  converged: " + converged_text(decisions) + "\n";
}

std::string autonomous_report_text(const json &report) {
    const int iterations = report["iterations"].get<int>();
    std::string text = format_text(
        "\n%s stopped after %d iteration%s: %s\n", report["command"].get<std::string>().c_str(),
        iterations, iterations == 1 ? "" : "s", report["stopped"].get<std::string>().c_str());
    for (const auto &pending : report["pending"]) {
        text += "  not converged: " + pending.get<std::string>() + "\n";
    }
    text += reports::rankings_text("by total RAROI over the iterations", report["rankings"]);
    return text + final_metrics_text(report) + foresight_text(report);
}

}  // namespace sbx::autonomous
