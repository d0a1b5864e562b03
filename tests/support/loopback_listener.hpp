// A TCP listening socket on 127.0.0.1 at a port the kernel chooses, for the test servers
// that stand in for a workflow's upstreams and services. Closed when it goes.
#pragma once

#include <string>

namespace sbx::test {

class LoopbackListener {
  public:
    // Throws std::runtime_error with errno's text when the socket cannot listen.
    explicit LoopbackListener(int backlog = 64);
    ~LoopbackListener();
    LoopbackListener(const LoopbackListener &) = delete;
    LoopbackListener &operator=(const LoopbackListener &) = delete;

    [[nodiscard]] int fd() const { return fd_; }
    [[nodiscard]] int port() const { return port_; }
    // "127.0.0.1:<port>", as a workflow's upstream `target`.
    [[nodiscard]] std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
    // Wakes a thread blocked in accept() on it (accept then fails), before joining it.
    void shut_down() const;

  private:
    int fd_ = -1;
    int port_ = 0;
};

}  // namespace sbx::test
