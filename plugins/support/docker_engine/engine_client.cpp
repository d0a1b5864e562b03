// libcurl over the engine's socket. Rationale for libcurl over a hand-written client: the
// engine answers with chunked bodies, keep-alive and (for exec/attach) raw streams until
// close; libcurl gets all of that, plus per-call timeouts and an abort hook, right, and it
// is a well-kept Debian library. One easy handle per client reuses the connection.
#include "support/docker_engine/engine_client.hpp"

#include <curl/curl.h>

#include <cctype>
#include <cstdlib>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "support/environment_variable.hpp"

namespace sbx::docker {
namespace {

// The API version every path is prefixed with: 1.41 is Docker 20.10 (Debian 12's), and
// newer engines still accept it.
constexpr const char *kApiVersion = "/v1.41";

void global_init_once() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct Transfer {
    CURL *curl = nullptr;
    std::string body;
    const BodySink *sink = nullptr;
    const CancelCheck *cancelled = nullptr;
};

size_t on_body(char *data, size_t size, size_t count, void *user) {
    auto *transfer = static_cast<Transfer *>(user);
    const size_t length = size * count;
    long status = 0;
    curl_easy_getinfo(transfer->curl, CURLINFO_RESPONSE_CODE, &status);
    // An error answer is the engine's message, kept for the EngineError, not stream data.
    if (transfer->sink != nullptr && status < 400) {
        (*transfer->sink)(data, length);
    } else {
        transfer->body.append(data, length);
    }
    return length;
}

// Nonzero aborts the transfer: the owner asked to stop.
int on_progress(void *user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
    const auto *transfer = static_cast<Transfer *>(user);
    return (*transfer->cancelled)() ? 1 : 0;
}

// The engine's error bodies are {"message": "..."}; fall back to the raw text.
std::string engine_message(const std::string &body) {
    try {
        const auto parsed = nlohmann::json::parse(body);
        if (parsed.is_object() && parsed.contains("message") && parsed["message"].is_string()) {
            return parsed["message"].get<std::string>();
        }
    } catch (const nlohmann::json::exception &) {
    }
    return body.empty() ? "(no message)" : body;
}

}  // namespace

EngineEndpoint EngineEndpoint::from_environment() {
    EngineEndpoint endpoint{"/var/run/docker.sock", std::string("http://localhost") + kApiVersion};
    const char *docker_host = support::environment_variable("DOCKER_HOST");
    if (docker_host == nullptr) {
        return endpoint;
    }
    const std::string text(docker_host);
    if (text.rfind("unix://", 0) == 0) {
        endpoint.unix_socket = text.substr(7);
    } else if (text.rfind("tcp://", 0) == 0) {
        endpoint.unix_socket.clear();
        endpoint.base_url = "http://" + text.substr(6) + kApiVersion;
    } else {
        throw std::invalid_argument("DOCKER_HOST='" + text +
                                    "' is neither unix:///path nor tcp://host:port; fix or "
                                    "unset it");
    }
    return endpoint;
}

std::string EngineEndpoint::describe() const {
    return unix_socket.empty() ? base_url : "unix://" + unix_socket;
}

struct EngineClient::Handle {
    CURL *curl = nullptr;
    ~Handle() {
        if (curl != nullptr) {
            curl_easy_cleanup(curl);
        }
    }
};

EngineClient::EngineClient(EngineEndpoint endpoint, CancelCheck cancelled)
    : endpoint_(std::move(endpoint)),
      cancelled_(std::move(cancelled)),
      handle_(std::make_unique<Handle>()) {
    global_init_once();
    handle_->curl = curl_easy_init();
    if (handle_->curl == nullptr) {
        throw std::runtime_error("docker: curl_easy_init failed (out of memory?)");
    }
}

EngineClient::~EngineClient() = default;

EngineResponse EngineClient::call(const char *method, const std::string &path,
                                  const std::string &json_body, std::chrono::milliseconds timeout,
                                  bool cancellable) {
    return perform(method, path, json_body, timeout, nullptr, cancellable);
}

EngineResponse EngineClient::stream(const char *method, const std::string &path,
                                    const std::string &json_body, std::chrono::milliseconds timeout,
                                    const BodySink &sink) {
    return perform(method, path, json_body, timeout, &sink, true);
}

EngineResponse EngineClient::perform(const char *method, const std::string &path,
                                     const std::string &json_body,
                                     std::chrono::milliseconds timeout, const BodySink *sink,
                                     bool cancellable) {
    CURL *curl = handle_->curl;
    curl_easy_reset(curl);  // keeps the connection cache, drops the previous options
    const std::string url = endpoint_.base_url + path;
    Transfer transfer;
    transfer.curl = curl;
    transfer.sink = sink;
    transfer.cancelled = &cancelled_;
    char error_text[CURL_ERROR_SIZE] = "";
    curl_slist *headers = nullptr;
    headers = curl_slist_append(headers, "Content-Type: application/json");
    // Without it curl waits a second for "100 Continue" on larger bodies.
    headers = curl_slist_append(headers, "Expect:");
    struct HeaderList {
        curl_slist *list;
        ~HeaderList() { curl_slist_free_all(list); }
    } header_guard{headers};

    if (!endpoint_.unix_socket.empty()) {
        curl_easy_setopt(curl, CURLOPT_UNIX_SOCKET_PATH, endpoint_.unix_socket.c_str());
    }
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    if (!json_body.empty() || std::string(method) == "POST") {
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, json_body.c_str());
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, static_cast<long>(json_body.size()));
    }
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &on_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error_text);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);  // threads: no SIGALRM-based DNS timeouts
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, 5000L);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout.count()));
    if (cancellable && cancelled_) {
        curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
        curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, &on_progress);
        curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &transfer);
    }

    const CURLcode code = curl_easy_perform(curl);
    EngineResponse response;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
    if (code == CURLE_ABORTED_BY_CALLBACK) {
        throw EngineError(EngineFailure::cancelled, 0,
                          std::string(method) + " " + path + ": cancelled");
    }
    if (code == CURLE_OPERATION_TIMEDOUT) {
        throw EngineError(EngineFailure::timeout, response.status,
                          std::string(method) + " " + path + ": no answer from the engine at " +
                              endpoint_.describe() + " within " + std::to_string(timeout.count()) +
                              " ms");
    }
    if (code != CURLE_OK) {
        // No socket, nobody listening, the daemon died mid-answer.
        throw EngineError(EngineFailure::unreachable, response.status,
                          "cannot reach the Docker engine at " + endpoint_.describe() + " (" +
                              std::string(method) + " " + path + "): " +
                              (error_text[0] != '\0' ? error_text : curl_easy_strerror(code)) +
                              "; is dockerd running? (tools/start-docker)");
    }
    if (response.status >= 400) {
        throw EngineError(response.status >= 500 ? EngineFailure::server : EngineFailure::refused,
                          response.status, engine_message(transfer.body));
    }
    response.body = std::move(transfer.body);
    return response;
}

std::string url_encode(const std::string &value) {
    static const char *hex = "0123456789ABCDEF";
    std::string out;
    for (const unsigned char c : value) {
        if (std::isalnum(c) != 0 || c == '-' || c == '_' || c == '.' || c == '~') {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

}  // namespace sbx::docker
