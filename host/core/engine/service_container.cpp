// The docker CLI commands of an image service.
#include "engine/service_container.hpp"

#include <chrono>

#include "engine/service_process.hpp"
#include "util/command_output.hpp"

namespace sbx::engine {
namespace {

constexpr auto kRemoveTimeout = std::chrono::seconds(30);

}  // namespace

std::string service_container_name(const std::string &id) {
    return "sbx-service-" + id;
}

std::vector<std::string> service_container_argv(const config::Service &service, int port,
                                                const std::string &id, const std::string &folder) {
    const std::string docker = program_path("docker");
    if (docker.empty()) {
        throw ServiceError("service '" + service.name + "' runs image " + service.image +
                           ", but the docker CLI is not in PATH; install docker.io (and start "
                           "the engine) or give the service a run: command instead");
    }
    // Never pulls: a missing image fails the start at once, with docker's message.
    std::vector<std::string> argv = {docker,      "run",
                                     "--rm",      "--pull=never",
                                     "--init",    "--network=host",
                                     "--name",    service_container_name(id),
                                     "--label",   "sandbox-runner.service=" + id,
                                     "--volume",  folder + ":" + folder,
                                     "--workdir", folder};
    // By name only: the values are in the CLI's own environment (environment_of), so a
    // password never shows on a command line in `ps`.
    for (const auto &entry : service.env) {
        argv.insert(argv.end(), {"--env", entry.first});
    }
    argv.insert(argv.end(),
                {"--env", "SANDBOX_SERVICE_PORT", "--env", "SANDBOX_SERVICE_ID", service.image});
    for (const auto &word : service.run) {
        argv.push_back(with_port(word, port));
    }
    return argv;
}

std::string remove_service_container(const std::string &name) {
    const std::string docker = program_path("docker");
    if (docker.empty()) {
        return "the docker CLI is not in PATH";
    }
    const auto result = util::command_output({docker, "rm", "--force", name}, kRemoveTimeout);
    if (!result.error.empty()) {
        return result.error;
    }
    if (result.timed_out) {
        return "docker rm did not end within 30 s";
    }
    // "No such container" is the goal reached: the CLI's --rm removed it already.
    const std::string said = result.err + result.out;
    if (result.ok() || said.find("No such container") != std::string::npos) {
        return "";
    }
    return said.empty() ? "docker rm failed" : said;
}

}  // namespace sbx::engine
