// Reads `workflows:`: names and ids unique, steps present, baselines naming a workflow.
#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <utility>

#include "config/section_readers.hpp"
#include "config/suggest.hpp"
#include "util/number_parse.hpp"

namespace sbx::config {

namespace {

constexpr const char *kWorkflowExample =
    "workflows: [{name: import, steps: [{name: load, run: [./bin/kvtool, import]}]}]";
const std::vector<std::string> &workflow_keys() {
    static const std::vector<std::string> values = {
        "id",    "name",     "executor",      "baseline",  "impact",        "filesystem", "binds",
        "steps", "services", "service_scope", "upstreams", "network_mocks", "safe_mode"};
    return values;
}

constexpr const char *kUpstreamExample =
    "upstreams: [{name: api, listen: 127.0.0.1:18080, target: 127.0.0.1:8080}]";
const std::vector<std::string> &upstream_keys() {
    static const std::vector<std::string> values = {"name", "listen", "target"};
    return values;
}

// The workflow types that set the RAROI impact (docs/semantics.md, "RAROI").
const std::vector<std::string> &impacts() {
    static const std::vector<std::string> values = {"experimental", "low", "standard", "critical"};
    return values;
}

bool is_workflow_name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.';
}

// Workflow names become file names (scorecard_<name>.json) and CLI arguments.
void check_workflow_name(const YamlReader &reader, const Field &field, const std::string &name) {
    bool safe = name.front() != '.' && name.front() != '-';
    bool digits_only = true;
    for (char c : name) {
        safe = safe && is_workflow_name_char(c);
        digits_only = digits_only && c >= '0' && c <= '9';
    }
    if (!safe) {
        reader.fail(reader.where(field), "workflow name '" + name + "' is not a plain name",
                    "use letters, digits, '_', '-' and '.' (not first), since the name is used "
                    "in file names; write e.g. name: kv-import");
    }
    if (digits_only) {
        reader.fail(reader.where(field), "workflow name '" + name + "' is only digits",
                    "a number would read as a workflow id; write id: " + name +
                        " and a name such as name: workflow-" + name);
    }
}

// The name a workflow or step mapping gives itself, before its keys are checked, so that
// messages about its other keys can already say which one it is ("" when there is none).
std::string written_name(const YAML::Node &item) {
    if (item.IsMap()) {
        YAML::Node name = item["name"];
        if (name.IsDefined() && name.IsScalar() && !name.Scalar().empty()) {
            return name.Scalar();
        }
    }
    return "";
}

// "step 2 of workflow 'ci'", or "step 'build' of workflow 'ci'" when it has a name.
std::string step_label(size_t index, const YAML::Node &item, const std::string &workflow) {
    std::string name = written_name(item);
    std::string label = name.empty() ? "step " + std::to_string(index) : "step '" + name + "'";
    return label + " of " + workflow;
}

std::vector<Step> read_steps(const YamlReader &reader, const Field &field,
                             const std::string &workflow) {
    const std::string example = "steps: [{name: load, run: [./bin/kvtool, import]}]";
    if (!field.value.IsSequence()) {
        reader.fail(
            reader.where(field),
            "steps of " + workflow + " must be a list, not " + YamlReader::describe(field.value),
            "write " + example);
    }
    if (field.value.size() == 0) {
        reader.fail(reader.where(field), workflow + " has an empty list of steps",
                    "give it at least one step; write " + example);
    }
    std::vector<Step> steps;
    std::map<std::string, int> lines;
    size_t index = 0;
    for (const auto &item : field.value) {
        ++index;
        Field step_field{"step " + std::to_string(index), field.value, item};
        Step step = read_step(reader, step_field, step_label(index, item, workflow));
        if (step.name.empty()) {
            step.name = "step" + std::to_string(index);
        }
        auto [first, inserted] = lines.emplace(step.name, step.where.line);
        if (!inserted) {
            reader.fail(step.where,
                        "step name '" + step.name + "' is used twice in " + workflow +
                            " (first at line " + std::to_string(first->second) + ")",
                        "give each step of a workflow its own name");
        }
        steps.push_back(std::move(step));
    }
    return steps;
}

Upstream read_upstream(const YamlReader &reader, const Field &field, const std::string &what) {
    Upstream upstream;
    upstream.where = reader.where(field.value);
    if (!field.value.IsMap()) {
        reader.fail(reader.where(field),
                    what + " is " + YamlReader::describe(field.value) + ", not a mapping",
                    std::string("write ") + kUpstreamExample);
    }
    std::string label = what;
    if (!written_name(field.value).empty()) {
        label = "upstream '" + written_name(field.value) + "'" + what.substr(what.find(" of "));
    }
    for (const auto &entry : reader.fields(field, upstream_keys(), label, kUpstreamExample)) {
        if (entry.key == "name") {
            upstream.name = reader.non_empty_text(entry, "name: api");
            const bool plain = upstream.name.find_first_not_of(
                                   "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                   "0123456789_") == std::string::npos &&
                               !(upstream.name.front() >= '0' && upstream.name.front() <= '9');
            if (!plain) {
                reader.fail(reader.where(entry),
                            "upstream name '" + upstream.name + "' is not a plain name",
                            "use letters, digits and '_', not starting with a digit, since it "
                            "names the variable SANDBOX_UPSTREAM_<NAME>; write e.g. name: api");
            }
            continue;
        }
        const bool listen = entry.key == "listen";
        const std::string example = listen ? "listen: 127.0.0.1:18080" : "target: 127.0.0.1:8080";
        std::string address = reader.non_empty_text(entry, example);
        std::string why;
        if (!is_host_port(address, listen, why)) {
            std::string problem = entry.key + " '" + address;
            problem.append("' of ").append(label).append(" ").append(why);
            reader.fail(reader.where(entry), problem,
                        "write " + example + " (an IPv6 address in brackets, quoted: \"[::1]:" +
                            (listen ? "18080" : "8080") + "\")");
        }
        (listen ? upstream.listen : upstream.target) = std::move(address);
    }
    for (const auto &[key, value] :
         {std::pair<const char *, const std::string *>{"name", &upstream.name},
          {"listen", &upstream.listen},
          {"target", &upstream.target}}) {
        if (value->empty()) {
            reader.fail(upstream.where, label + " has no " + key,
                        std::string("give it name, listen and target; write ") + kUpstreamExample);
        }
    }
    return upstream;
}

// `upstreams:` of a workflow: names unique once upper-cased (they name environment
// variables), listen addresses unique (one proxy per address); port 0 may repeat.
std::vector<Upstream> read_upstreams(const YamlReader &reader, const Field &field,
                                     const std::string &workflow) {
    std::vector<Upstream> upstreams;
    if (!field.value.IsDefined() || field.value.IsNull()) {
        return upstreams;
    }
    if (!field.value.IsSequence()) {
        reader.fail(reader.where(field),
                    "upstreams of " + workflow + " must be a list, not " +
                        YamlReader::describe(field.value),
                    std::string("write ") + kUpstreamExample);
    }
    std::map<std::string, size_t> names;
    std::map<std::string, size_t> listens;
    size_t index = 0;
    for (const auto &item : field.value) {
        ++index;
        Upstream upstream =
            read_upstream(reader, {"upstream " + std::to_string(index), field.value, item},
                          "upstream " + std::to_string(index) + " of " + workflow);
        std::string upper = upstream.name;
        std::transform(upper.begin(), upper.end(), upper.begin(),
                       [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
        if (const auto [first, added] = names.emplace(upper, upstreams.size()); !added) {
            reader.fail(upstream.where,
                        "upstream name '" + upstream.name + "' of " + workflow +
                            " is used twice (first at line " +
                            std::to_string(upstreams[first->second].where.line) + ")",
                        "give each upstream its own name (SANDBOX_UPSTREAM_" + upper +
                            " names one upstream; case does not count)");
        }
        const bool any_port = upstream.listen.size() > 2 &&
                              upstream.listen.compare(upstream.listen.size() - 2, 2, ":0") == 0;
        if (const auto [first, added] = listens.emplace(upstream.listen, upstreams.size());
            !added && !any_port) {
            reader.fail(upstream.where,
                        "listen " + upstream.listen + " of upstream '" + upstream.name +
                            "' is already the listen address of upstream '" +
                            upstreams[first->second].name + "'",
                        "give each upstream its own port, or port 0 for any free one");
        }
        upstreams.push_back(std::move(upstream));
    }
    return upstreams;
}

// Where a workflow's name and id were written, for duplicate checks.
struct KeyLocations {
    SourceLocation name;
    SourceLocation id;
};

Workflow read_workflow(const YamlReader &reader, const Field &field, size_t index,
                       KeyLocations &locations) {
    Workflow workflow;
    workflow.where = reader.where(field.value);
    std::string what = "workflow " + std::to_string(index);
    if (!field.value.IsMap()) {
        reader.fail(reader.where(field),
                    what + " is " + YamlReader::describe(field.value) + ", not a mapping",
                    "write " + std::string(kWorkflowExample));
    }
    if (!written_name(field.value).empty()) {
        what = "workflow '" + written_name(field.value) + "'";
    }
    auto fields = reader.fields(field, workflow_keys(), what, kWorkflowExample);
    // Read the name first so that every later message can say which workflow it is about.
    for (const auto &entry : fields) {
        if (entry.key == "name") {
            workflow.name = reader.non_empty_text(entry, "name: kv-import");
            locations.name = reader.where(entry);
            check_workflow_name(reader, entry, workflow.name);
            what = "workflow '" + workflow.name + "'";
        }
    }
    if (workflow.name.empty()) {
        reader.fail(workflow.where, what + " has no name", "add a line such as name: kv-import");
    }
    bool has_steps = false;
    std::optional<Field> services;
    std::optional<Field> mocks;
    for (const auto &entry : fields) {
        if (entry.key == "id") {
            workflow.id = reader.integer(entry, "id: 42");
            locations.id = reader.where(entry);
            if (workflow.id <= 0) {
                reader.fail(reader.where(entry),
                            "workflow id " + std::to_string(workflow.id) + " is not positive",
                            "write a positive whole number such as id: 42");
            }
        } else if (entry.key == "executor") {
            workflow.executor = reader.non_empty_text(entry, "executor: local");
            workflow.executor_where = reader.where(entry);
        } else if (entry.key == "baseline") {
            workflow.baseline = reader.non_empty_text(entry, "baseline: kv-import-v1");
            workflow.baseline_where = reader.where(entry);
        } else if (entry.key == "impact") {
            workflow.impact = reader.non_empty_text(entry, "impact: standard");
            if (std::find(impacts().begin(), impacts().end(), workflow.impact) == impacts().end()) {
                reader.fail(
                    reader.where(entry), "impact '" + workflow.impact + "' is not known",
                    did_you_mean(workflow.impact, impacts()) + "write one of " + join(impacts()));
            }
        } else if (entry.key == "filesystem") {
            workflow.filesystem = reader.non_empty_text(entry, "filesystem: readonly");
            if (workflow.filesystem != "readonly" && workflow.filesystem != "host" &&
                workflow.filesystem != "minimal") {
                reader.fail(reader.where(entry),
                            "filesystem '" + workflow.filesystem + "' is not known",
                            "write filesystem: readonly (the default: only the workspace, /tmp "
                            "and /dev/shm are writable), filesystem: minimal (only binds:) or "
                            "filesystem: host");
            }
        } else if (entry.key == "binds") {
            workflow.binds = reader.text_list(entry, "binds: [/usr, /etc/ssl, /srv/data:rw]");
            for (const std::string &bind : workflow.binds) {
                if (bind.empty() || bind.front() != '/') {
                    reader.fail(reader.where(entry), "bind '" + bind + "' is not an absolute path",
                                "write absolute paths such as binds: [/usr, /srv/data:rw]");
                }
            }
        } else if (entry.key == "services") {
            services = entry;  // read after the loop, against every upstream's name
        } else if (entry.key == "service_scope") {
            workflow.service_scope = read_service_scope(reader, entry);
        } else if (entry.key == "network_mocks") {
            mocks = entry;  // read after the loop, against the upstreams' and services' names
        } else if (entry.key == "safe_mode") {
            workflow.safe_mode = reader.boolean(entry);
            workflow.safe_mode_written = true;
            workflow.safe_mode_where = reader.where(entry);
        } else if (entry.key == "upstreams") {
            workflow.upstreams = read_upstreams(reader, entry, what);
        } else if (entry.key == "steps") {
            has_steps = true;
            workflow.steps = read_steps(reader, entry, what);
        }
    }
    if (services) {
        workflow.services = read_services(reader, *services, what, workflow.upstreams);
    }
    if (mocks) {
        workflow.network_mocks =
            read_network_mocks(reader, *mocks, what, workflow.upstreams, workflow.services);
    }
    if (!workflow.binds.empty() && workflow.filesystem != "minimal") {
        reader.fail(workflow.where, what + " lists binds: but its filesystem is not minimal",
                    "add filesystem: minimal, or remove binds: (the other views show the host's "
                    "whole tree)");
    }
    if (!has_steps) {
        reader.fail(workflow.where, what + " has no steps",
                    "add steps, e.g. steps: [{name: load, run: [./bin/kvtool, import]}]");
    }
    return workflow;
}

void check_unique(const YamlReader &reader, const std::vector<Workflow> &workflows,
                  const std::vector<KeyLocations> &locations) {
    std::map<std::string, size_t> names;
    std::map<int64_t, size_t> ids;
    for (size_t i = 0; i < workflows.size(); ++i) {
        const Workflow &workflow = workflows[i];
        auto [by_name, new_name] = names.emplace(workflow.name, i);
        if (!new_name) {
            reader.fail(locations[i].name,
                        "workflow name '" + workflow.name + "' is used twice (first at line " +
                            std::to_string(locations[by_name->second].name.line) + ")",
                        "give each workflow its own name");
        }
        if (workflow.id == 0) {
            continue;
        }
        auto [by_id, new_id] = ids.emplace(workflow.id, i);
        if (!new_id) {
            const Workflow &first = workflows[by_id->second];
            reader.fail(locations[i].id,
                        "workflow id " + std::to_string(workflow.id) + " of '" + workflow.name +
                            "' is already the id of '" + first.name + "' (line " +
                            std::to_string(locations[by_id->second].id.line) + ")",
                        "give each workflow its own id");
        }
    }
}

void check_baselines(const YamlReader &reader, const std::vector<Workflow> &workflows) {
    std::vector<std::string> names;
    names.reserve(workflows.size());
    for (const auto &workflow : workflows) {
        names.push_back(workflow.name);
    }
    for (const auto &workflow : workflows) {
        if (workflow.baseline.empty()) {
            continue;
        }
        bool found = false;
        for (const auto &other : workflows) {
            found = found || workflow.baseline == other.name ||
                    (other.id != 0 && workflow.baseline == std::to_string(other.id));
        }
        if (!found) {
            reader.fail(workflow.baseline_where,
                        "baseline '" + workflow.baseline + "' of workflow '" + workflow.name +
                            "' is not a workflow in this file",
                        did_you_mean(workflow.baseline, names) + "name one of " + join(names));
        }
        if (workflow.baseline == workflow.name ||
            (workflow.id != 0 && workflow.baseline == std::to_string(workflow.id))) {
            reader.fail(workflow.baseline_where,
                        "workflow '" + workflow.name + "' is its own baseline",
                        "name the workflow to compare against (e.g. the old build's), or remove "
                        "baseline");
        }
    }
}

}  // namespace

bool is_host_port(const std::string &text, bool any_port, std::string &why) {
    size_t colon = std::string::npos;
    if (!text.empty() && text.front() == '[') {
        const size_t close = text.find(']');
        if (close == std::string::npos || close == 1 || close + 1 >= text.size() ||
            text[close + 1] != ':') {
            why = "is not [address]:port";
            return false;
        }
        colon = close + 1;
    } else {
        colon = text.find(':');
        if (colon == std::string::npos || colon == 0 ||
            text.find(':', colon + 1) != std::string::npos) {
            why = "is not host:port";
            return false;
        }
    }
    const std::string port = text.substr(colon + 1);
    const auto number = util::parse_uint64(port, util::LeadingPlus::refused);
    if (!number || port.size() > 5) {
        why = "has no port number after the last ':'";
        return false;
    }
    if (*number > 65535 || (*number == 0 && !any_port)) {
        why = "has port " + port + ", not one from " + (any_port ? "0" : "1") + " to 65535";
        return false;
    }
    return true;
}

std::vector<Workflow> read_workflows(const YamlReader &reader, const Field &field) {
    std::vector<Workflow> workflows;
    if (!field.value.IsDefined() || field.value.IsNull()) {
        return workflows;
    }
    if (!field.value.IsSequence()) {
        reader.fail(reader.where(field),
                    "workflows must be a list, not " + YamlReader::describe(field.value),
                    "write " + std::string(kWorkflowExample));
    }
    std::vector<KeyLocations> locations;
    size_t index = 0;
    for (const auto &item : field.value) {
        ++index;
        locations.emplace_back();
        workflows.push_back(read_workflow(reader,
                                          {"workflow " + std::to_string(index), field.value, item},
                                          index, locations.back()));
    }
    check_unique(reader, workflows, locations);
    check_baselines(reader, workflows);
    return workflows;
}

}  // namespace sbx::config
