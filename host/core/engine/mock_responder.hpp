// A workflow's network mock served for one run: a listener on a free port of 127.0.0.1 and
// a thread that answers every HTTP request on it with the mock's canned response, counting
// them. The run reaches it as an upstream, so the preset's upstream faults apply between.
#pragma once

#include <atomic>
#include <cstdint>
#include <sbx/unique_fd.hpp>
#include <string>
#include <thread>

#include "config/network_mock.hpp"

namespace sbx::engine {

class MockResponder {
  public:
    // Listening and answering when it returns; throws ServiceError (no socket, no port).
    explicit MockResponder(const config::NetworkMock &mock);
    // Stops the thread and closes every connection: nothing outlives the run.
    ~MockResponder();
    MockResponder(const MockResponder &) = delete;
    MockResponder &operator=(const MockResponder &) = delete;

    [[nodiscard]] const std::string &name() const { return name_; }
    [[nodiscard]] int port() const { return port_; }
    // Requests answered so far (a request is its header block, read whole).
    [[nodiscard]] std::uint64_t requests() const { return requests_.load(); }

  private:
    void serve() noexcept;

    std::string name_;
    std::string answer_;  // status line, headers and body, the same bytes for every request
    UniqueFd listener_;
    UniqueFd wake_;  // an eventfd: written by the destructor to end serve()
    int port_ = 0;
    std::atomic<std::uint64_t> requests_{0};
    std::thread thread_;  // last: started once everything it reads is set
};

// "HTTP/1.1 200 OK\r\n...": the whole answer of `mock`, with Content-Length and
// Connection: close.
std::string mock_answer(const config::NetworkMock &mock);

}  // namespace sbx::engine
