// Listed by label through the Engine API, judged by the process identity in the labels:
// the same test for every container this tool makes, so purge-stale, check-resources and the
// executor's own sweep agree on what is stale.
#include "support/docker_engine/stale_containers.hpp"

#include <sbx/process_identity.hpp>

namespace sbx::docker {
namespace {

using nlohmann::json;

std::string label_text(const json &labels, const std::string &key) {
    const auto found = labels.find(key);
    return found != labels.end() && found->is_string() ? found->get<std::string>() : "";
}

}  // namespace

json host_labels(const std::string &label) {
    const ProcessIdentity host = ProcessIdentity::current();
    return json{{label + ".host-pid", std::to_string(host.pid)},
                {label + ".host-start", std::to_string(host.start_time)}};
}

bool host_alive(const json &labels, const std::string &label) {
    // The labels hold ProcessIdentity::text()'s two numbers; a missing or bad one names no
    // live process.
    return ProcessIdentity::parse(label_text(labels, label + ".host-pid") + " " +
                                  label_text(labels, label + ".host-start"))
        .alive();
}

std::string StaleContainer::describe() const {
    return "container " + name + " (" + id.substr(0, 12) + ") of dead host " + host_pid;
}

std::vector<StaleContainer> find_stale_containers(EngineApi &api, const std::string &label) {
    std::vector<StaleContainer> stale;
    for (const json &container : api.list_containers(label)) {
        const json labels = container.value("Labels", json::object());
        const std::string id = container.value("Id", "");
        if (id.empty() || host_alive(labels, label)) {
            continue;
        }
        const json names = container.value("Names", json::array());
        const std::string name =
            names.empty() || !names[0].is_string() ? id.substr(0, 12) : names[0].get<std::string>();
        stale.push_back({id, name.substr(name.rfind('/') + 1),
                         labels.value(label + ".host-pid", std::string("?"))});
    }
    return stale;
}

std::vector<StaleContainer> sweep_stale_containers(EngineApi &api, const std::string &label,
                                                   bool dry_run) {
    std::vector<StaleContainer> stale = find_stale_containers(api, label);
    if (!dry_run) {
        for (const StaleContainer &container : stale) {
            api.remove_container(container.id);
        }
    }
    return stale;
}

}  // namespace sbx::docker
