// Rendering what `explore` found.
#include "reports/explore_report.hpp"

#include "reports/replay_line.hpp"

namespace sbx::reports {

using nlohmann::json;

namespace {

using engine::ShrunkCrash;

json crash_json(const ShrunkCrash &entry, const std::string &commands) {
    json out = {{"signature", entry.crash.signature.key},
                {"summary", entry.crash.signature.summary},
                {"run", entry.crash.run_id},
                {"found_at", entry.crash.found_at},
                {"hits", entry.crash.hits},
                {"replay", replay_line(commands, entry.crash.run_id)}};
    if (entry.shrunk && entry.shrunk->result.reproducible) {
        out["shrunk"] = {{"inputs", entry.shrunk->result.inputs},
                         {"minimal", entry.shrunk->result.minimal},
                         {"broken_by", entry.shrunk->result.broken_by},
                         {"run", entry.shrunk->minimal_run},
                         {"replay", replay_line(commands, entry.shrunk->minimal_run)}};
    }
    return out;
}

// The coverage feedback, a program that refused everything, a strategy out of inputs.
std::string feedback_text(const engine::ExploreOutcome &outcome) {
    std::string out;
    if (outcome.coverage) {
        out += "coverage feedback: on; " + std::to_string(outcome.runs_with_new_lines) +
               " runs reached new lines, kept in the corpus (" +
               std::to_string(outcome.corpus.size()) + ")\n";
    } else {
        out +=
            "coverage feedback: off (no run gave line coverage: add `metrics: [+coverage]` and "
            "`injectors: [+coverage_capture]`, with a C/C++ target built with --coverage or a "
            "Python one run by a python3 that has coverage.py)\n";
    }
    if (outcome.accepted == 0 && !outcome.first_refusal.empty()) {
        out +=
            "none of the " + std::to_string(outcome.runs) +
            " runs was accepted: the program refused every input (first: " + outcome.first_refusal +
            "); check the step's command (a relative path is the workspace's) and the "
            "example\n";
    }
    if (outcome.exhausted) {
        out += "the stub strategy had no new input left after " + std::to_string(outcome.runs) +
               " runs\n";
    }
    return out;
}

// "broken by", the minimal input and its replay line; or why there is none.
std::string minimal_input_text(const ShrunkCrash &entry, const std::string &commands) {
    if (!entry.shrunk || !entry.shrunk->result.reproducible) {
        return std::string("     ") +
               (entry.shrunk ? "did not crash again when run once more (flaky)"
                             : "not shrunk (--shrink-runs 0)") +
               "\n     replay: " + replay_line(commands, entry.crash.run_id) + "\n";
    }
    std::string out;
    for (const auto &[slot, changes] : entry.shrunk->result.broken_by) {
        std::string said;
        for (const std::string &change : changes) {
            said += (said.empty() ? "" : ", ") + change;
        }
        out.append("     broken by: ").append(said).append(" (input ").append(slot).append(")\n");
    }
    std::string text =
        shortened(entry.shrunk->result.inputs).dump(-1, ' ', false, json::error_handler_t::replace);
    if (text.size() > 400) {
        text = text.substr(0, 200) + "… (" + std::to_string(text.size()) + " bytes)";
    }
    out += "     minimal input: " + text + "\n";
    out += "     replay: " + replay_line(commands, entry.shrunk->minimal_run) + "\n";
    return out;
}

}  // namespace

json shortened(const json &value) {
    constexpr std::size_t kLongest = 120;
    if (value.is_string()) {
        const auto &text = value.get_ref<const std::string &>();
        if (text.size() <= kLongest) {
            return value;
        }
        const json document = json::parse(text, nullptr, false);
        if (!document.is_discarded() && document.is_structured()) {
            return shortened(document).dump(-1, ' ', false, json::error_handler_t::replace);
        }
        return text.substr(0, 40) + "… (" + std::to_string(text.size()) + " bytes)";
    }
    if (value.is_structured()) {
        json out = value;
        for (auto &member : out) {
            member = shortened(member);
        }
        return out;
    }
    return value;
}

json explore_json(const ExploreReport &report, const std::string &preset) {
    json found = json::array();
    for (const ShrunkCrash &entry : report.crashes) {
        found.push_back(crash_json(entry, report.commands));
    }
    const auto &outcome = report.outcome;
    return {{"workflow", report.workflow},
            {"session", report.session},
            {"slot", outcome.slot},
            {"preset", preset},
            {"runs", outcome.runs},
            {"coverage", outcome.coverage},
            {"runs_with_new_lines", outcome.runs_with_new_lines},
            {"accepted", outcome.accepted},
            {"corpus", outcome.corpus},
            {"exhausted", outcome.exhausted},
            {"failures", found}};
}

std::string explore_text(const ExploreReport &report, const std::string &preset,
                         const std::string &corpus_folder) {
    const auto &outcome = report.outcome;
    std::string out = "explore " + report.workflow + ": " + std::to_string(outcome.runs) +
                      " runs under " + preset + ", input " + outcome.slot + "\n";
    out += feedback_text(outcome);
    out += "distinct failures: " + std::to_string(report.crashes.size()) + "\n";
    int n = 0;
    for (const ShrunkCrash &entry : report.crashes) {
        const auto &crash = entry.crash;
        out += "  " + std::to_string(++n) + ". " + crash.signature.summary +
               "\n     first at run " + std::to_string(crash.found_at) + " of " +
               std::to_string(outcome.runs) + " (" + std::to_string(crash.hits) +
               " runs failed this way)\n";
        out += minimal_input_text(entry, report.commands);
    }
    if (!corpus_folder.empty()) {
        out += "corpus: " + std::to_string(outcome.corpus.size()) + " new inputs kept in " +
               corpus_folder + " (resume with --corpus " + corpus_folder + ")\n";
    }
    out += "recorded as session " + std::to_string(report.session) + "\n";
    return out;
}

}  // namespace sbx::reports
