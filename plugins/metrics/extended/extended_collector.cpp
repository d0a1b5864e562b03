// The `extended` collector: the seeds' extended metrics of a cell, from what its runs did.
// `shannon_entropy` (of behaviours) and `outcome_entropy` (of outcomes) say how varied the
// runs were, `efficiency` how much CPU a passing run costs, `antifragility` whether the
// runs got better as the stress went on, `resilience` the cell's ROI against the same
// workflow's ROI under the baseline preset, `throughput` passing runs per second of run
// time, `recovery_time` how long failing runs lasted until one passed again,
// `safety_rating` the share of runs that neither crashed nor hung and `risk_index` the
// failure probability the runs cannot rule out. Formulas: docs/semantics.md.
#include <sbx/plugin.hpp>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "cell_tally.hpp"
#include "support/cell_ledger.hpp"

namespace sbx::extended {
namespace {

using nlohmann::json;

// The open cells and the baseline ROIs.
support::CellLedger<CellTally, double> &ledger() {
    static support::CellLedger<CellTally, double> cells;
    return cells;
}

json number_or_null(const std::optional<double> &value) {
    return value ? json(*value) : json(nullptr);
}

class ExtendedCollector final : public MetricsCollector {
  public:
    static constexpr About about{
        "extended",
        "Extended metrics",
        "1.1.0",
        "Per cell: shannon_entropy and outcome_entropy of the runs' behaviours and outcomes, "
        "efficiency (CPU per passing run), antifragility (later repetitions against earlier "
        "ones), resilience (ROI against the baseline preset's), throughput (passing runs per "
        "second), recovery_time (seconds of failing runs until one passed), safety_rating "
        "(runs that neither crashed nor hung) and risk_index (the failure probability's 95 % "
        "upper bound).",
        R"json({"type":"object","additionalProperties":false,"properties":{
          "baseline":{"type":"string","minLength":1,"default":"normal",
            "description":"the preset whose cell ROI resilience divides by"}}})json",
        "sandbox-runner",
        "https://example.invalid/sandbox-runner",
        "Apache-2.0"};

    explicit ExtendedCollector(const std::string &config_json) {
        baseline_ = json::parse(config_json).value("baseline", "normal");
    }

    std::string collect(const std::string &request_json) override {
        const json request = json::parse(request_json);
        const std::string phase = request.value("phase", "");
        if (phase == "run") {
            ledger().update(request, [&](CellTally &tally) { tally.add_run(request); });
            return "{}";
        }
        if (phase != "cell") {
            return "{}";
        }
        const CellTally tally = ledger().close(request);
        if (tally.runs() == 0) {
            // No run of the cell was collected by this process (a cell --recover finished
            // from runs recorded before a crash): nothing to say, rather than zeros.
            return "{}";
        }
        const CellFigures figures = tally.figures();
        return json{{"shannon_entropy", figures.shannon_entropy},
                    {"outcome_entropy", figures.outcome_entropy},
                    {"efficiency", figures.efficiency},
                    {"cpu_s_per_pass", number_or_null(figures.cpu_s_per_pass)},
                    {"antifragility", number_or_null(figures.antifragility)},
                    {"resilience", number_or_null(resilience(request))},
                    {"throughput", number_or_null(figures.throughput)},
                    {"recovery_time", number_or_null(figures.recovery_time)},
                    {"safety_rating", figures.safety_rating},
                    {"risk_index", figures.risk_index}}
            .dump();
    }

  private:
    // roi / roi_baseline, 0 when the baseline's ROI is 0; unknown until this process has
    // finished the baseline preset's cell of the same session, workflow and flag (it comes
    // first in the matrix, so with one worker it always has).
    [[nodiscard]] std::optional<double> resilience(const json &request) const {
        if (!request.contains("roi") || !request["roi"].is_number()) {
            return std::nullopt;
        }
        const double roi = request["roi"].get<double>();
        if (request.value("scenario", "") == baseline_) {
            ledger().set_baseline(request, roi);
        }
        const auto baseline = ledger().baseline(request);
        if (!baseline) {
            return std::nullopt;
        }
        return *baseline == 0 ? 0.0 : roi / *baseline;
    }

    std::string baseline_;
};

}  // namespace
}  // namespace sbx::extended

SBX_PLUGIN(sbx::extended::ExtendedCollector);
