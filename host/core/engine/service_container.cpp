// The Engine API calls of an image service. Rationale for the API over the docker CLI: one
// way to talk to Docker in the project, the executor's; an error is the engine's own message
// at the call that failed; the environment goes in the create body, so no value shows on a
// command line; and no CLI process sits between the host and the container.
#include "engine/service_container.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <sbx/unique_fd.hpp>

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "engine/service_error.hpp"
#include "engine/service_process.hpp"
#include "support/docker_engine/engine_api.hpp"
#include "support/docker_engine/stale_containers.hpp"

namespace sbx::engine {
namespace {

using nlohmann::json;

constexpr std::chrono::seconds kCallTimeout{30};
constexpr std::chrono::seconds kStartTimeout{60};  // create and start: the engine's real work

std::unique_ptr<docker::EngineApi> connect(const docker::CancelCheck &cancelled = {}) {
    return std::make_unique<docker::EngineApi>(docker::EngineEndpoint::from_environment(),
                                               kCallTimeout, kStartTimeout, cancelled);
}

// One stream of the output, appended to a file of the service's folder.
class FileSink final : public docker::ByteSink {
  public:
    explicit FileSink(const std::filesystem::path &path)
        : fd_(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600)) {}
    void append(const char *bytes, std::size_t length) override {
        while (fd_.valid() && length > 0) {
            const ssize_t wrote = ::write(fd_.get(), bytes, length);
            if (wrote <= 0) {
                return;  // a full disk costs the service's log, not the run
            }
            bytes += wrote;
            length -= static_cast<std::size_t>(wrote);
        }
    }

  private:
    UniqueFd fd_;
};

json create_body(const config::Service &service, int port, const std::string &id,
                 const std::string &folder) {
    json env = json::array();
    for (const auto &[name, value] : service.env) {
        env.push_back(name + "=" + with_port(value, port));
    }
    env.push_back("SANDBOX_SERVICE_PORT=" + std::to_string(port));
    env.push_back("SANDBOX_SERVICE_ID=" + id);
    json labels = docker::host_labels(kServiceLabel);
    labels[kServiceLabel] = id;
    json body = {{"Image", service.image},
                 {"Env", env},
                 {"WorkingDir", folder},
                 {"Labels", labels},
                 // tini as PID 1 passes SIGTERM on: a server as PID 1 would ignore it.
                 {"HostConfig",
                  {{"NetworkMode", "host"}, {"Init", true}, {"Binds", {folder + ":" + folder}}}}};
    if (!service.run.empty()) {  // else the image's own command
        json command = json::array();
        for (const auto &word : service.run) {
            command.push_back(with_port(word, port));
        }
        body["Cmd"] = command;
    }
    return body;
}

}  // namespace

std::string service_container_name(const std::string &id) {
    return "sbx-service-" + id;
}

ServiceContainer::ServiceContainer(const config::Service &service, int port, const std::string &id,
                                   const std::filesystem::path &folder)
    : service_(service.name), name_(service_container_name(id)) {
    const std::string failed = "service '" + service_ + "': its container from image " +
                               service.image + " could not be started: ";
    try {
        api_ = connect();
        id_ = api_->create_container(name_, create_body(service, port, id, folder.string()));
        api_->start_container(id_);
    } catch (const std::exception &e) {
        // A bad DOCKER_HOST, no engine, no such image, no such command in it.
        if (api_ && !id_.empty()) {
            (void)remove(std::chrono::seconds(0));
        }
        throw ServiceError(failed + e.what());
    }
    follower_ = std::thread([this, folder] { follow_output(folder); });
}

ServiceContainer::~ServiceContainer() {
    stopping_ = true;
    if (follower_.joinable()) {
        follower_.join();
    }
}

void ServiceContainer::follow_output(const std::filesystem::path &folder) {
    FileSink out(folder / "stdout");
    FileSink err(folder / "stderr");
    docker::StreamDemux demux(out, err);
    try {
        // A client of its own (one per thread): it lives as long as the stream.
        connect([this] { return stopping_.load(); })->follow_logs(id_, demux);
    } catch (const std::exception &) {
        // Stopped, or the engine went away: ended() asks the engine which.
    }
    followed_ = true;
}

std::optional<std::string> ServiceContainer::ended() const {
    if (!followed_) {
        return std::nullopt;  // the output stream is open while the container runs
    }
    const std::lock_guard<std::mutex> lock(mutex_);
    if (ended_) {
        return ended_;
    }
    try {
        const json state = api_->inspect_container(id_).value("State", json::object());
        if (state.value("Running", false)) {
            return std::nullopt;  // the stream broke, the container did not
        }
        ended_ = "exited with " + std::to_string(state.value("ExitCode", -1L)) +
                 (state.value("OOMKilled", false) ? " (killed by the OOM killer)" : "");
    } catch (const std::exception &e) {
        ended_ = std::string("is gone: ") + e.what();
    }
    return ended_;
}

std::string ServiceContainer::remove(std::chrono::seconds grace) noexcept {
    const std::lock_guard<std::mutex> lock(mutex_);
    try {
        api_->stop_container(id_, grace);
        stopping_ = true;  // the stream ends with the container; this ends a stuck one
        api_->remove_container(id_);
        return "";
    } catch (const std::exception &e) {
        stopping_ = true;
        return e.what();
    }
}

std::vector<std::string> sweep_service_containers(bool dry_run, std::string &unreachable) {
    std::vector<std::string> lines;
    try {
        for (const auto &stale :
             docker::sweep_stale_containers(*connect(), kServiceLabel, dry_run)) {
            lines.push_back(stale.describe());
        }
    } catch (const std::exception &e) {
        unreachable = e.what();  // no engine here, or a DOCKER_HOST it cannot use
    }
    return lines;
}

}  // namespace sbx::engine
