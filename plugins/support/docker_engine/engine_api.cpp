// Paths and bodies of the Engine API v1.41 (docs.docker.com/engine/api/v1.41).
#include "support/docker_engine/engine_api.hpp"

namespace sbx::docker {

using nlohmann::json;

namespace {
// A wait with no limit of its own still ends: a day, then the call fails. Cancellation
// (polled by the client) is what normally ends such a wait early.
constexpr std::chrono::milliseconds kLongest{24LL * 3600 * 1000};
}  // namespace

EngineApi::EngineApi(EngineEndpoint endpoint, std::chrono::milliseconds call_timeout,
                     std::chrono::milliseconds start_timeout, CancelCheck cancelled)
    : client_(std::move(endpoint), std::move(cancelled)),
      call_timeout_(call_timeout),
      start_timeout_(start_timeout) {}

std::chrono::milliseconds EngineApi::unbounded(
    std::optional<std::chrono::milliseconds> limit) const {
    return limit ? std::max(*limit, std::chrono::milliseconds(1)) : kLongest;
}

void EngineApi::ping() {
    client_.call("GET", "/_ping", "", call_timeout_);
}

std::string EngineApi::create_container(const std::string &name, const json &config) {
    const auto response = client_.call("POST", "/containers/create?name=" + url_encode(name),
                                       config.dump(), start_timeout_);
    return json::parse(response.body).at("Id").get<std::string>();
}

void EngineApi::start_container(const std::string &id) {
    client_.call("POST", "/containers/" + id + "/start", "", start_timeout_);
}

long EngineApi::wait_container(const std::string &id,
                               std::optional<std::chrono::milliseconds> limit) {
    const auto response = client_.call("POST", "/containers/" + id + "/wait", "", unbounded(limit));
    return json::parse(response.body).value("StatusCode", -1L);
}

json EngineApi::inspect_container(const std::string &id) {
    return json::parse(client_.call("GET", "/containers/" + id + "/json", "", call_timeout_).body);
}

void EngineApi::read_logs(const std::string &id, StreamDemux &demux) {
    client_.stream("GET", "/containers/" + id + "/logs?stdout=1&stderr=1", "", call_timeout_,
                   [&demux](const char *bytes, std::size_t length) { demux.feed(bytes, length); });
}

void EngineApi::follow_logs(const std::string &id, StreamDemux &demux) {
    client_.stream("GET", "/containers/" + id + "/logs?follow=1&stdout=1&stderr=1", "", kLongest,
                   [&demux](const char *bytes, std::size_t length) { demux.feed(bytes, length); });
}

void EngineApi::stop_container(const std::string &id, std::chrono::seconds grace) {
    try {
        client_.call("POST", "/containers/" + id + "/stop?t=" + std::to_string(grace.count()), "",
                     call_timeout_ + grace, false);
    } catch (const EngineError &e) {
        if (e.http_status() != 404) {  // gone (a stopped one answers 304, no error)
            throw;
        }
    }
}

void EngineApi::kill_container(const std::string &id) {
    try {
        client_.call("POST", "/containers/" + id + "/kill", "", call_timeout_, false);
    } catch (const EngineError &e) {
        if (e.http_status() != 404 && e.http_status() != 409) {  // gone, or not running
            throw;
        }
    }
}

void EngineApi::remove_container(const std::string &id) {
    try {
        client_.call("DELETE", "/containers/" + id + "?force=1&v=1", "", call_timeout_, false);
    } catch (const EngineError &e) {
        if (e.http_status() != 404) {
            throw;
        }
    }
}

std::vector<json> EngineApi::list_containers(const std::string &label) {
    const json filters = {{"label", {label}}};
    const auto response = client_.call(
        "GET", "/containers/json?all=1&filters=" + url_encode(filters.dump()), "", call_timeout_);
    return json::parse(response.body).get<std::vector<json>>();
}

json EngineApi::info() {
    return json::parse(client_.call("GET", "/info", "", call_timeout_).body);
}

std::string EngineApi::create_exec(const std::string &container_id, const json &config) {
    const auto response =
        client_.call("POST", "/containers/" + container_id + "/exec", config.dump(), call_timeout_);
    return json::parse(response.body).at("Id").get<std::string>();
}

void EngineApi::start_exec(const std::string &exec_id, StreamDemux &demux,
                           std::optional<std::chrono::milliseconds> limit) {
    client_.stream("POST", "/exec/" + exec_id + "/start",
                   json{{"Detach", false}, {"Tty", false}}.dump(), unbounded(limit),
                   [&demux](const char *bytes, std::size_t length) { demux.feed(bytes, length); });
}

EngineExit EngineApi::inspect_exec(const std::string &exec_id) {
    const auto body =
        json::parse(client_.call("GET", "/exec/" + exec_id + "/json", "", call_timeout_).body);
    EngineExit exit;
    exit.exit_code = body.value("ExitCode", -1L);
    return exit;
}

}  // namespace sbx::docker
