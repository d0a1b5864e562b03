// Reads how a step is judged under the robustness scenarios: the exit codes with which it
// rejects bad input cleanly (`rejects:`), and whether clean rejections pass (`scoring:`).
#include <algorithm>

#include "config/section_readers.hpp"
#include "config/suggest.hpp"

namespace sbx::config {

namespace {

constexpr const char *kRejectsExample = "rejects: {exit_codes: [1, 2]}";

const std::vector<std::string> &scoring_names() {
    static const std::vector<std::string> values = {"robust", "strict"};
    return values;
}

}  // namespace

std::vector<int> read_rejects(const YamlReader &reader, const Field &field, const std::string &what,
                              const Expectation &expect) {
    std::vector<int> codes;
    bool has_codes = false;
    for (const auto &entry :
         reader.fields(field, {"exit_codes"}, "rejects of " + what, kRejectsExample)) {
        has_codes = true;
        if (!entry.value.IsSequence() || entry.value.size() == 0) {
            reader.fail(reader.where(entry),
                        "exit_codes of " + what + " is " + YamlReader::describe(entry.value) +
                            ", not a list of exit codes",
                        std::string("write the codes the program exits with when it refuses an "
                                    "input, e.g. ") +
                            kRejectsExample);
        }
        for (const auto &item : entry.value) {
            const Field code_field{"exit code", entry.key_node, item};
            const int64_t code = reader.integer(code_field, kRejectsExample);
            if (code < 1 || code > 255) {
                reader.fail(reader.where(code_field),
                            "exit code " + std::to_string(code) + " cannot be a rejection",
                            "write exit codes from 1 to 255 (0 is success; a signal is a crash, "
                            "not a rejection)");
            }
            if (expect.exit_code && code == *expect.exit_code) {
                reader.fail(reader.where(code_field),
                            "exit code " + std::to_string(code) + " is the one " + what +
                                " expects to succeed with",
                            "leave it out of rejects, or change expect: {exit_code: ...}");
            }
            codes.push_back(static_cast<int>(code));
        }
    }
    if (!has_codes) {
        reader.fail(reader.where(field), "rejects of " + what + " names no exit_codes",
                    std::string("write ") + kRejectsExample + ", or remove rejects");
    }
    std::sort(codes.begin(), codes.end());
    codes.erase(std::unique(codes.begin(), codes.end()), codes.end());
    return codes;
}

Scoring read_scoring(const YamlReader &reader, const Field &field, const std::string &what) {
    const std::string name = reader.non_empty_text(field, "scoring: strict");
    if (name == "strict") {
        return Scoring::strict;
    }
    if (name != "robust") {
        reader.fail(reader.where(field),
                    "scoring '" + name + "' of " + what + " is not a scoring rule",
                    did_you_mean(name, scoring_names()) +
                        "write scoring: robust (the default: a clean rejection passes under "
                        "hostile_input, user_misuse and schema_drift) or scoring: strict (only "
                        "the expectation passes)");
    }
    return Scoring::robust;
}

}  // namespace sbx::config
