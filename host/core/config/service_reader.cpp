// Reads a workflow's `services:` and `service_scope:`.
#include <algorithm>
#include <cctype>
#include <set>

#include "config/section_readers.hpp"
#include "config/templates.hpp"
#include "config/variable_names.hpp"

namespace sbx::config {
namespace {

constexpr const char *kServiceExample =
    "services: [{name: api, run: [python3, -m, http.server, \"{{port}}\"], ready: {http: /}}]";

const std::vector<std::string> &service_keys() {
    static const std::vector<std::string> values = {"name",  "run",   "image",           "env",
                                                    "files", "ready", "ready_timeout_ms"};
    return values;
}

// `ready:` {tcp: true} | {http: /path} | {command: [argv]}.
void read_probe(const YamlReader &reader, const Field &field, const std::string &what,
                Service &service) {
    const std::string example = "ready: {http: /health} (or {tcp: true}, or {command: [argv]})";
    const auto entries =
        reader.fields(field, {"tcp", "http", "command"}, "ready of " + what, example);
    if (entries.size() != 1) {
        reader.fail(reader.where(field),
                    "ready of " + what + " names " + std::to_string(entries.size()) + " probes",
                    "give exactly one: " + example);
    }
    const Field &probe = entries.front();
    if (probe.key == "tcp") {
        if (!reader.boolean(probe)) {
            reader.fail(reader.where(probe), "ready: {tcp: false} waits for nothing",
                        "write ready: {tcp: true}, or leave ready: out (TCP is the default)");
        }
        service.probe = Service::Probe::tcp;
    } else if (probe.key == "http") {
        service.http_path = reader.non_empty_text(probe, "http: /health");
        if (service.http_path.front() != '/') {
            reader.fail(
                reader.where(probe),
                "http path '" + service.http_path + "' of " + what + " does not start with '/'",
                "write the path the service answers on 127.0.0.1:{{port}}, e.g. http: "
                "/health");
        }
        service.probe = Service::Probe::http;
    } else {
        service.probe_command = reader.text_list(probe, "command: [pg_isready, -p, \"{{port}}\"]");
        if (service.probe_command.empty() || service.probe_command.front().empty()) {
            reader.fail(reader.where(probe), "the probe command of " + what + " is empty",
                        "write e.g. command: [pg_isready, -p, \"{{port}}\"]");
        }
        service.probe = Service::Probe::command;
    }
}

Service read_service(const YamlReader &reader, const Field &field, const std::string &what) {
    Service service;
    bool has_run = false;
    for (const auto &entry : reader.fields(field, service_keys(), what, kServiceExample)) {
        if (entry.key == "name") {
            service.name = reader.non_empty_text(entry, "name: api");
            if (!is_plain_name(service.name)) {
                reader.fail(reader.where(entry),
                            "service name '" + service.name + "' is not a plain name",
                            "use letters, digits and '_', not starting with a digit, since it "
                            "names the variable SANDBOX_UPSTREAM_<NAME>; write e.g. name: api");
            }
        } else if (entry.key == "run") {
            service.run = reader.text_list(entry, "run: [python3, -m, http.server, \"{{port}}\"]");
            has_run = true;
            if (service.run.empty() || service.run.front().empty()) {
                reader.fail(reader.where(entry), "run of " + what + " has no program",
                            "write run: [program, args...]; \"{{port}}\" stands for the port "
                            "the host chose");
            }
        } else if (entry.key == "image") {
            service.image = reader.non_empty_text(entry, "image: redis:7");
        } else if (entry.key == "env") {
            for (const auto &var : reader.entries(entry, "env of " + what, "env: {MODE: test}")) {
                if (!is_slot_name(var.key)) {
                    reader.fail(reader.where(var.key_node),
                                "'" + var.key + "' is not an environment variable name",
                                "use letters, digits and '_', not starting with a digit");
                }
                service.env[var.key] = reader.text(var, var.key + ": value");
            }
        } else if (entry.key == "files") {
            for (const auto &file :
                 reader.entries(entry, "files of " + what, "files: {config.json: \"{}\"}")) {
                if (file.key.empty() || file.key.find('/') != std::string::npos ||
                    file.key == "." || file.key == ".." || file.key == "stdout" ||
                    file.key == "stderr") {
                    reader.fail(reader.where(file.key_node),
                                "file name '" + file.key + "' of " + what +
                                    " is not a plain file name of the service's folder",
                                "write a name without '/' (stdout and stderr are taken), e.g. "
                                "files: {config.json: \"{}\"}");
                }
                service.files[file.key] = reader.text(file, "\"" + file.key + "\": content");
            }
        } else if (entry.key == "ready") {
            read_probe(reader, entry, what, service);
        } else if (entry.key == "ready_timeout_ms") {
            service.ready_timeout_ms = reader.integer(entry, "ready_timeout_ms: 10000");
            if (service.ready_timeout_ms < 1 || service.ready_timeout_ms > 3600000) {
                reader.fail(reader.where(entry),
                            "ready_timeout_ms " + std::to_string(service.ready_timeout_ms) +
                                " is not from 1 to 3600000",
                            "write the milliseconds a start may take, e.g. ready_timeout_ms: "
                            "10000");
            }
        }
    }
    if (service.name.empty() || (!has_run && service.image.empty())) {
        reader.fail(
            reader.where(field),
            what + " has no " + (service.name.empty() ? "name" : "run or image"),
            std::string("give it a name and a run: (or an image:); write ") + kServiceExample);
    }
    return service;
}

}  // namespace

std::vector<Service> read_services(const YamlReader &reader, const Field &field,
                                   const std::string &workflow,
                                   const std::vector<Upstream> &upstreams) {
    std::vector<Service> services;
    if (!field.value.IsDefined() || field.value.IsNull()) {
        return services;
    }
    if (!field.value.IsSequence()) {
        reader.fail(
            reader.where(field),
            "services of " + workflow + " must be a list, not " + YamlReader::describe(field.value),
            std::string("write ") + kServiceExample);
    }
    std::set<std::string> names;
    for (const auto &upstream : upstreams) {
        names.insert(upper_name(upstream.name));
    }
    std::size_t index = 0;
    for (const auto &item : field.value) {
        ++index;
        const std::string what = "service " + std::to_string(index) + " of " + workflow;
        Service service =
            read_service(reader, {"service " + std::to_string(index), field.value, item}, what);
        if (!names.insert(upper_name(service.name)).second) {
            reader.fail(reader.where(item),
                        "service name '" + service.name + "' of " + workflow +
                            " is taken by another service or upstream",
                        "give each its own name (SANDBOX_UPSTREAM_" + upper_name(service.name) +
                            " names one; case does not count)");
        }
        services.push_back(std::move(service));
    }
    return services;
}

ServiceScope read_service_scope(const YamlReader &reader, const Field &field) {
    const std::string scope = reader.non_empty_text(field, "service_scope: run");
    if (scope == "run") {
        return ServiceScope::run;
    }
    if (scope == "cell") {
        return ServiceScope::cell;
    }
    reader.fail(reader.where(field), "service_scope '" + scope + "' is not known",
                "write service_scope: run (services start and stop around each run, the "
                "default) or service_scope: cell (once per cell, shared by its runs)");
}

}  // namespace sbx::config
