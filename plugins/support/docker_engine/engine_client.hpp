// HTTP/1.1 to the Docker Engine API over its unix socket (or DOCKER_HOST), through libcurl.
// Every call has a deadline and polls its owner's cancellation, so a dead or stuck daemon
// ends a call with an EngineError instead of hanging a run. Shared by the docker executor
// and the host's image services (sbx_docker_engine: libcurl and the C++ library, no plugin
// API and no host header, so both sides link it).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

namespace sbx::docker {

// Why a call failed. `unreachable` and `server` are worth retrying; `refused` (4xx) is not.
enum class EngineFailure { unreachable, timeout, cancelled, refused, server };

class EngineError : public std::runtime_error {
  public:
    EngineError(EngineFailure failure, long http_status, const std::string &message)
        : std::runtime_error(message), failure_(failure), http_status_(http_status) {}
    [[nodiscard]] EngineFailure failure() const noexcept { return failure_; }
    // 0 when no HTTP answer came.
    [[nodiscard]] long http_status() const noexcept { return http_status_; }
    [[nodiscard]] bool transient() const noexcept {
        return failure_ == EngineFailure::unreachable || failure_ == EngineFailure::server;
    }

  private:
    EngineFailure failure_;
    long http_status_;
};

// Where the engine listens: a unix socket path, or an http://host:port base for tcp://.
struct EngineEndpoint {
    std::string unix_socket;  // "" for tcp
    std::string base_url;     // "http://localhost/v1.41" (the host part is ignored for unix)

    // DOCKER_HOST (unix:///path or tcp://host:port) when set, else /var/run/docker.sock.
    // Throws std::invalid_argument naming DOCKER_HOST when it is neither.
    static EngineEndpoint from_environment();
    [[nodiscard]] std::string describe() const;
};

struct EngineResponse {
    long status = 0;
    std::string body;
};

// Receives body bytes as they arrive (streamed endpoints: logs, exec start).
using BodySink = std::function<void(const char *bytes, std::size_t length)>;

// True when the owner wants the call in flight to end (the plugin host cancelling, a
// service being stopped); polled while a call waits. An empty one never cancels.
using CancelCheck = std::function<bool()>;

// One connection to the engine, kept alive between calls. Not thread-safe: one per
// executor instance (the ABI serializes calls on an instance).
class EngineClient {
  public:
    // Throws std::runtime_error when libcurl cannot make a handle.
    explicit EngineClient(EngineEndpoint endpoint, CancelCheck cancelled = {});
    ~EngineClient();
    EngineClient(const EngineClient &) = delete;
    EngineClient &operator=(const EngineClient &) = delete;

    // `path` starts with "/" (e.g. "/containers/create"); `json_body` "" sends no body.
    // Answers with status >= 400 throw EngineError carrying the engine's "message".
    // `cancellable` false: the call goes on when the host cancels (removing containers is
    // what a cancelled host must still do).
    EngineResponse call(const char *method, const std::string &path, const std::string &json_body,
                        std::chrono::milliseconds timeout, bool cancellable = true);
    // Same, but hands the body to `sink` as it streams (and returns it empty).
    EngineResponse stream(const char *method, const std::string &path, const std::string &json_body,
                          std::chrono::milliseconds timeout, const BodySink &sink);

    [[nodiscard]] const EngineEndpoint &endpoint() const { return endpoint_; }

  private:
    EngineResponse perform(const char *method, const std::string &path,
                           const std::string &json_body, std::chrono::milliseconds timeout,
                           const BodySink *sink, bool cancellable);
    EngineEndpoint endpoint_;
    CancelCheck cancelled_;
    struct Handle;
    std::unique_ptr<Handle> handle_;
};

// "/containers/create?name=x" with `value` percent-encoded.
std::string url_encode(const std::string &value);

}  // namespace sbx::docker
