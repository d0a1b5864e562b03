#include "presets/adaptation_rules.hpp"

namespace sbx::presets {
namespace {

bool is_resource(const std::string &key) {
    return key == "CPU_LIMIT" || key == "MEMORY_LIMIT" || key == "BANDWIDTH_LIMIT";
}

bool is_network(const std::string &key) {
    return key == "NETWORK_LATENCY_MS" || key == "BANDWIDTH_LIMIT";
}

}  // namespace

RuleStep rule_step(const std::string &key, const TrendSignals &signals) {
    int votes = 0;
    std::string why;
    const auto vote = [&](int direction, const std::string &reason) {
        votes += direction;
        why += (why.empty() ? "" : ", ") + reason;
    };
    const bool held_every_run = signals.roi_latest && *signals.roi_latest >= 1.0 &&
                                signals.roi != Trend::falling && signals.roi != Trend::rising;
    if (held_every_run) {
        vote(+1, "held every run");
    } else if (is_resource(key)) {
        if (signals.roi == Trend::rising) {
            vote(+1, "ROI rising");
        } else if (signals.roi == Trend::flat || signals.roi == Trend::falling) {
            vote(-1, std::string("ROI ") + trend_name(signals.roi));
        }
    }
    if (signals.synergy == Trend::rising || signals.synergy == Trend::falling) {
        const int sign = signals.synergy == Trend::rising ? +1 : -1;
        const std::string reason = std::string(sign > 0 ? "positive" : "negative") + " synergy";
        if (key == "CPU_LIMIT" || key == "MEMORY_LIMIT") {
            vote(sign, reason);
        } else if (is_network(key)) {
            vote(-sign, reason);
        }
    }
    if (key == "THREAT_INTENSITY") {
        if (signals.security == Level::high) {
            vote(+1, "security_score high");
        } else if (signals.security == Level::low) {
            vote(-1, "security_score low");
        }
    }
    const Step step = votes > 0 ? Step::harsher : votes < 0 ? Step::milder : Step::keep;
    return {step, why};
}

}  // namespace sbx::presets
