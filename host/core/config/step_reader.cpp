// Reads one workflow step and its expectation; checks that every {{input.NAME}} template
// names an input the step declares.
#include <algorithm>
#include <optional>
#include <stdexcept>

#include "config/section_readers.hpp"
#include "config/suggest.hpp"
#include "config/templates.hpp"
#include "util/errors.hpp"
#include "util/units.hpp"

namespace sbx::config {

namespace {

constexpr const char *kRunExample = "run: [prog, arg1, arg2]";
const std::vector<std::string> &step_keys() {
    static const std::vector<std::string> values = {"name",    "run",    "stdin",  "env",
                                                    "files",   "inputs", "expect", "rejects",
                                                    "scoring", "timeout"};
    return values;
}

const std::vector<std::string> &expect_keys() {
    static const std::vector<std::string> values = {"exit_code", "status", "stdout_contains"};
    return values;
}

// The executor result statuses (docs/semantics.md, "Executor status of a step").
const std::vector<std::string> &statuses() {
    static const std::vector<std::string> values = [] {
        std::vector<std::string> codes;
        codes.reserve(kRunStatuses.size());
        for (const RunStatus status : kRunStatuses) {
            codes.emplace_back(status_code(status));
        }
        return codes;
    }();
    return values;
}

// A string of the step that may hold templates, and where it was written.
struct TemplateSite {
    std::string text;
    SourceLocation where;
};

// Files are written into the run's workspace; a path must stay inside it.
void check_workspace_path(const YamlReader &reader, const Field &entry) {
    const std::string &path = entry.key;
    bool escapes = path.empty() || path.front() == '/';
    size_t start = 0;
    while (!escapes && start <= path.size()) {
        size_t end = path.find('/', start);
        if (end == std::string::npos) {
            end = path.size();
        }
        escapes = path.compare(start, end - start, "..") == 0 && end - start == 2;
        start = end + 1;
    }
    if (escapes) {
        reader.fail(reader.where(entry.key_node),
                    "file path '" + path + "' is not inside the run's workspace",
                    "write a relative path without '..', such as files: {data/input.json: "
                    "\"{{input.payload}}\"}");
    }
}

void check_templates(const YamlReader &reader, const Step &step, const std::string &what,
                     const std::vector<TemplateSite> &sites) {
    std::vector<std::string> declared;
    for (const auto &slot : step.inputs) {
        declared.push_back(slot.name);
    }
    for (const auto &site : sites) {
        std::vector<TemplateRef> refs;
        try {
            refs = find_input_templates(site.text);
        } catch (const std::invalid_argument &error) {
            throw InputError(site.where.str() + ": " + error.what());
        }
        for (const auto &ref : refs) {
            if (std::find(declared.begin(), declared.end(), ref.slot) != declared.end()) {
                continue;
            }
            reader.fail(
                site.where,
                what + " uses {{input." + ref.slot + "}} but declares no input '" + ref.slot + "'",
                did_you_mean(ref.slot, declared) + "declare it, e.g. inputs: {" + ref.slot +
                    ": {type: string}} (declared inputs: " + join(declared) + ")");
        }
    }
}

}  // namespace

Expectation read_expectation(const YamlReader &reader, const Field &field,
                             const std::string &what) {
    const std::string example = "expect: {exit_code: 0, status: OK, stdout_contains: done}";
    Expectation expect;
    for (const auto &entry : reader.fields(field, expect_keys(), "expect of " + what, example)) {
        if (entry.key == "exit_code") {
            if (entry.value.IsNull() || (entry.value.IsScalar() && entry.value.Scalar() == "any")) {
                expect.exit_code.reset();
                continue;
            }
            int64_t code = reader.integer(entry, "exit_code: 0 (or exit_code: any)");
            if (code < 0 || code > 255) {
                reader.fail(reader.where(entry),
                            "exit_code " + std::to_string(code) + " is not an exit code",
                            "write a number from 0 to 255, or exit_code: any");
            }
            expect.exit_code = static_cast<int>(code);
        } else if (entry.key == "status") {
            const std::string code = reader.non_empty_text(entry, "status: OK");
            const auto status = parse_run_status(code);
            if (!status) {
                reader.fail(reader.where(entry), "status '" + code + "' is not a run status",
                            did_you_mean(code, statuses()) + "write one of " + join(statuses()) +
                                " (ok, runtime error, signal, timeout, out of memory, internal "
                                "error)");
            }
            expect.status = *status;
        } else if (entry.key == "stdout_contains") {
            expect.stdout_contains = reader.text(entry, "stdout_contains: imported");
        }
    }
    return expect;
}

Step read_step(const YamlReader &reader, const Field &field, const std::string &what) {
    const std::string example = "{name: load, run: [./bin/kvtool, import]}";
    Step step;
    step.where = reader.where(field);
    if (!field.value.IsMap()) {
        reader.fail(step.where,
                    what + " is " + YamlReader::describe(field.value) + ", not a mapping",
                    "write a step such as " + example);
    }
    std::vector<TemplateSite> sites;
    bool has_run = false;
    // Read after the loop: whether a code is the expected one depends on `expect:`, which
    // may come later in the mapping.
    std::optional<Field> rejects;
    for (const auto &entry : reader.fields(field, step_keys(), what, example)) {
        if (entry.key == "name") {
            step.name = reader.non_empty_text(entry, "name: load");
        } else if (entry.key == "run") {
            has_run = true;
            std::vector<SourceLocation> locations;
            step.run = reader.text_list(entry, kRunExample, &locations);
            if (step.run.empty()) {
                reader.fail(
                    reader.where(entry), "run of " + what + " is empty",
                    "write the program and its arguments, e.g. " + std::string(kRunExample));
            }
            if (step.run.front().empty()) {
                reader.fail(locations.front(), "the program of " + what + " is an empty string",
                            "write the program first, e.g. " + std::string(kRunExample));
            }
            for (size_t i = 0; i < step.run.size(); ++i) {
                sites.push_back({step.run[i], locations[i]});
            }
        } else if (entry.key == "stdin") {
            step.stdin_text = reader.text(entry, "stdin: \"{{input.payload}}\"");
            sites.push_back({*step.stdin_text, reader.where(entry)});
        } else if (entry.key == "env") {
            for (const auto &var : reader.entries(entry, "env of " + what, "env: {MODE: fast}")) {
                if (!is_slot_name(var.key)) {
                    reader.fail(reader.where(var.key_node),
                                "'" + var.key + "' is not an environment variable name",
                                "use letters, digits and '_', not starting with a digit, e.g. "
                                "env: {MODE: fast}");
                }
                step.env[var.key] = reader.text(var, var.key + ": value");
                sites.push_back({step.env[var.key], reader.where(var)});
            }
        } else if (entry.key == "files") {
            for (const auto &file :
                 reader.entries(entry, "files of " + what, "files: {input.json: \"{}\"}")) {
                check_workspace_path(reader, file);
                step.files[file.key] = reader.text(file, "\"" + file.key + "\": content");
                sites.push_back({file.key, reader.where(file.key_node)});
                sites.push_back({step.files[file.key], reader.where(file)});
            }
        } else if (entry.key == "inputs") {
            for (const auto &slot :
                 reader.entries(entry, "inputs of " + what, "inputs: {file: {type: path}}")) {
                step.inputs.push_back(read_input_slot(reader, slot, what));
            }
        } else if (entry.key == "expect") {
            step.expect = read_expectation(reader, entry, what);
            if (step.expect.stdout_contains) {
                sites.push_back(
                    {*step.expect.stdout_contains, reader.where(entry.value["stdout_contains"])});
            }
        } else if (entry.key == "rejects") {
            rejects = entry;
        } else if (entry.key == "scoring") {
            step.scoring = read_scoring(reader, entry, what);
        } else if (entry.key == "timeout") {
            const std::string text = reader.non_empty_text(entry, "timeout: 30s");
            try {
                step.timeout_s = parse_duration_seconds(text);
            } catch (const UnitError &error) {
                reader.fail(reader.where(entry), "timeout " + error.problem(), error.hint());
            }
            if (*step.timeout_s <= 0) {
                reader.fail(reader.where(entry), "timeout of " + what + " is zero",
                            "write a positive duration such as timeout: 30s, or remove it");
            }
        }
    }
    if (rejects) {
        step.reject_exit_codes = read_rejects(reader, *rejects, what, step.expect);
    }
    if (!has_run) {
        reader.fail(step.where, what + " has no run",
                    "add the command to run, e.g. " + std::string(kRunExample));
    }
    check_templates(reader, step, what, sites);
    return step;
}

}  // namespace sbx::config
