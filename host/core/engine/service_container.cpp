// The docker CLI commands of an image service.
#include "engine/service_container.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sbx/unique_fd.hpp>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "engine/service_process.hpp"

extern char **environ;  // NOLINT: POSIX global

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
    std::vector<std::string> argv = {docker, "rm", "--force", name};
    std::vector<char *> pointers;
    pointers.reserve(argv.size() + 1);
    for (auto &word : argv) {
        pointers.push_back(word.data());
    }
    pointers.push_back(nullptr);
    // What it says comes through a pipe: a few dozen bytes, far below the pipe's buffer.
    int pipe_fds[2] = {-1, -1};
    if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
        return std::string("pipe: ") + std::strerror(errno);
    }
    const UniqueFd read_end(pipe_fds[0]);
    UniqueFd write_end(pipe_fds[1]);
    posix_spawn_file_actions_t actions;
    ::posix_spawn_file_actions_init(&actions);
    ::posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    ::posix_spawn_file_actions_adddup2(&actions, write_end.get(), 1);
    ::posix_spawn_file_actions_adddup2(&actions, write_end.get(), 2);
    pid_t pid = -1;
    const int error =
        ::posix_spawn(&pid, docker.c_str(), &actions, nullptr, pointers.data(), environ);
    ::posix_spawn_file_actions_destroy(&actions);
    write_end.reset();
    if (error != 0) {
        return docker + ": " + std::strerror(error);
    }
    const auto deadline = std::chrono::steady_clock::now() + kRemoveTimeout;
    int status = 0;
    while (::waitpid(pid, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() >= deadline) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, &status, 0);
            return "docker rm did not end within 30 s";
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    std::string said;
    char buffer[4096];
    for (ssize_t got = 0; (got = ::read(read_end.get(), buffer, sizeof buffer)) > 0;) {
        said.append(buffer, static_cast<std::size_t>(got));
    }
    // "No such container" is the goal reached: the CLI's --rm removed it already.
    if ((WIFEXITED(status) && WEXITSTATUS(status) == 0) ||
        said.find("No such container") != std::string::npos) {
        return "";
    }
    return said.empty() ? "docker rm failed" : said;
}

}  // namespace sbx::engine
