// Rendering a shrunk failure.
#include "reports/shrink_report.hpp"

#include "engine/input_bytes.hpp"
#include "engine/input_shrink.hpp"
#include "engine/recorded_run.hpp"
#include "reports/replay_line.hpp"
#include "reports/replay_report.hpp"

namespace sbx::reports {

using nlohmann::json;

namespace {

// A member name as a JSON pointer token (RFC 6901: ~ as ~0, / as ~1).
std::string pointer_token(const std::string &name) {
    std::string token;
    for (const char c : name) {
        token += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
    }
    return token;
}

void collect_bytes(const json &value, const std::string &pointer, json &found) {
    if (const auto bytes = engine::bytes_of(value)) {
        found[pointer] = engine::escaped_bytes(*bytes);
    } else if (value.is_object()) {
        for (const auto &[name, member] : value.items()) {
            collect_bytes(member, pointer + "/" + pointer_token(name), found);
        }
    } else if (value.is_array()) {
        for (size_t i = 0; i < value.size(); ++i) {
            collect_bytes(value[i], pointer + "/" + std::to_string(i), found);
        }
    }
}

std::string comma_joined(const std::vector<std::string> &words) {
    std::string said;
    for (const std::string &word : words) {
        said += (said.empty() ? "" : ", ") + word;
    }
    return said;
}

// The fault keys removed, the changes that break each slot, the part each belongs to.
std::string causes_text(const engine::ShrinkResult &result, const json &report) {
    const std::string removed = comma_joined(result.removed_fault_keys);
    std::string out = "fault keys removed: " + (removed.empty() ? "none" : removed) + "\n";
    if (!result.removed_fault_keys.empty()) {
        out += "minimal preset: " + result.preset_body.dump() + "\n";
    }
    for (const auto &[slot, changes] : result.broken_by) {
        out += "broken by: " + comma_joined(changes) + " (slot " + slot +
               ": its example with just " +
               (changes.size() == 1 ? "this change" : "these changes") + ")\n";
    }
    for (const auto &[slot, category] : report["belongs_to"].items()) {
        out += "belongs to: " + category.get<std::string>() + " (slot " + slot + ")\n";
    }
    return out;
}

}  // namespace

std::string failure_text(const store::RecordedRun &run) {
    std::string text = run_outcome(run);
    if (!run.passed && !run.outcome.empty()) {
        text.insert(text.size() - 1, ", " + run.outcome);
    }
    return text;
}

json bytes_by_pointer(const json &value) {
    json bytes = json::object();
    collect_bytes(value, "", bytes);
    return bytes;
}

json shrink_report(const store::RecordedRun &original, const engine::RecordedShrink &shrunk,
                   int max_runs, const std::string &commands) {
    const auto &result = shrunk.result;
    return {{"run", original.id},
            {"session", shrunk.session},
            {"reproducible", true},
            {"failure",
             {{"failed_step", original.failed_step},
              {"status", engine::failed_status(original)},
              {"outcome", original.outcome}}},
            {"minimal", result.minimal},
            {"runs", result.runs},
            {"max_runs", max_runs},
            {"inputs", result.inputs},
            {"bytes", bytes_by_pointer(result.inputs)},
            {"original_size", engine::inputs_size(original.inputs)},
            {"minimal_size", engine::inputs_size(result.inputs)},
            {"bytes_removed",
             engine::inputs_size(original.inputs) - engine::inputs_size(result.inputs)},
            {"fault_keys_removed", result.removed_fault_keys},
            {"preset", result.preset_body},
            {"belongs_to", shrunk.belongs_to},
            {"broken_by", result.broken_by},
            {"minimal_run", shrunk.minimal_run},
            {"replay", replay_line(commands, shrunk.minimal_run)}};
}

std::string shrink_text(const store::RecordedRun &original, const engine::ShrinkResult &result,
                        const json &report, int max_runs) {
    std::string out = recorded_run_line(original, failure_text(original)) + "\n";
    out += "shrunk in " + std::to_string(result.runs) + " runs: " +
           (result.minimal ? "minimal (removing anything more loses the failure)"
                           : "out of budget (--max-runs " + std::to_string(max_runs) +
                                 "); smaller, but maybe not minimal") +
           "\n";
    const size_t before = report["original_size"];
    const size_t after = report["minimal_size"];
    out += "input: " + std::to_string(before) + " -> " + std::to_string(after) + " bytes (" +
           std::to_string(before - after) + " removed)\n";
    out += "minimal input: " + result.inputs.dump() + "\n";
    for (const auto &[pointer, text] : report["bytes"].items()) {
        out += "  " + pointer + ": bytes \"" + text.get<std::string>() + "\"\n";
    }
    out += causes_text(result, report);
    out += "replay: " + report["replay"].get<std::string>() + "\n";
    return out;
}

json not_reproducible_json(const store::RecordedRun &original,
                           const engine::RecordedShrink &shrunk) {
    const auto &first = shrunk.first;
    return {{"run", original.id},
            {"session", shrunk.session},
            {"reproducible", false},
            {"runs", shrunk.result.runs},
            {"replay_run", first ? first->id : 0}};
}

std::string not_reproducible_text(const store::RecordedRun &original,
                                  const engine::RecordedShrink &shrunk) {
    const auto &first = shrunk.first;
    const std::string again =
        first ? "run " + std::to_string(first->id) + ": " + failure_text(*first) : "not recorded";
    return recorded_run_line(original, failure_text(original)) + "\nagain as " + again +
           "\nnot reproducible: the run no longer fails the same way, so there is nothing to "
           "shrink\n";
}

}  // namespace sbx::reports
