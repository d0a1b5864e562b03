#include "engine/service_set.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>

#include "engine/readiness_probe.hpp"

namespace sbx::engine {
namespace {

constexpr std::size_t kOutputTail = 16384;  // bytes of each stream kept in the run record

std::string upper(std::string name) {
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return name;
}

}  // namespace

int free_local_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof address;
    const bool bound = fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr *>(&address), size) == 0 &&
                       ::getsockname(fd, reinterpret_cast<sockaddr *>(&address), &size) == 0;
    const std::string why = std::strerror(errno);
    if (fd >= 0) {
        ::close(fd);
    }
    if (!bound) {
        throw ServiceError("no free TCP port on 127.0.0.1 for a service: " + why);
    }
    return ntohs(address.sin_port);
}

ServiceSet::ServiceSet(const std::vector<config::Service> &services,
                       const std::filesystem::path &state_dir) {
    try {
        for (const auto &service : services) {
            started_.push_back(
                std::make_unique<ServiceProcess>(service, free_local_port(), state_dir));
            wait_until_ready(service, *started_.back());
        }
    } catch (...) {
        while (!started_.empty()) {
            started_.pop_back();
        }
        throw;
    }
}

ServiceSet::~ServiceSet() {
    while (!started_.empty()) {
        started_.pop_back();  // a later service may depend on an earlier one
    }
}

void ServiceSet::add_to(nlohmann::json &spec) const {
    if (started_.empty()) {
        return;
    }
    nlohmann::json &upstreams = spec["upstreams"];
    if (!upstreams.is_array()) {
        upstreams = nlohmann::json::array();
    }
    for (const auto &service : started_) {
        const std::string address = "127.0.0.1:" + std::to_string(service->port());
        upstreams.push_back(
            {{"name", service->name()}, {"listen", "127.0.0.1:0"}, {"target", address}});
        spec["env"]["SANDBOX_UPSTREAM_" + upper(service->name())] = address;
    }
}

std::string ServiceSet::ended() const {
    for (const auto &service : started_) {
        if (const auto how = service->ended()) {
            return "service '" + service->name() + "' " + *how;
        }
    }
    return "";
}

nlohmann::json ServiceSet::record() const {
    nlohmann::json record = nlohmann::json::object();
    for (const auto &service : started_) {
        nlohmann::json &entry = record[service->name()];
        entry = {{"port", service->port()},
                 {"stdout", service->tail(false, kOutputTail)},
                 {"stderr", service->tail(true, kOutputTail)}};
        if (const auto how = service->ended()) {
            entry["ended"] = *how;
        }
    }
    return record;
}

}  // namespace sbx::engine
