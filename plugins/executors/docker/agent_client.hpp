// The host's end of the agent in a warm container (docker-run-init --serve, agent_wire.h):
// a pooled run handed over a unix socket, with no engine call. The listener is made before
// the container starts; the agent connects once, says hello, and the socket file goes.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/docker_engine/stream_demux.hpp"

namespace sbx::docker {

// The socket's name in the container's private folder (kIoMount inside).
inline constexpr const char kAgentSocketName[] = "agent.sock";

// The agent did not answer, went during a run, or broke the protocol. `unanswered`: it
// gave no answer by the host's deadline (it may still be running the target).
class AgentLost : public std::runtime_error {
  public:
    explicit AgentLost(const std::string &message, bool unanswered = false)
        : std::runtime_error(message), unanswered_(unanswered) {}
    [[nodiscard]] bool unanswered() const { return unanswered_; }

  private:
    bool unanswered_;
};

struct AgentRequest {
    std::vector<std::string> argv;
    std::vector<std::string> env;  // NAME=VALUE, added to the container's own
    std::string cwd;
    std::string stdin_bytes;  // empty: /dev/null
    std::uint64_t timeout_ms = 0;
    std::uint64_t cpu_time_s = 0;  // RLIMIT_CPU soft; hard one second more; 0: none
};

struct AgentReply {
    long status = 0;  // exit code, or 128 + N
    bool timed_out = false;
    bool helper_failed = false;  // status 125; `message` says why
    std::string message;
    double wall_s = 0;
    double user_s = 0;
    double system_s = 0;
    std::uint64_t max_rss_kb = 0;
};

// One connection to one agent; used by the run holding its container, one run at a time.
class AgentConnection {
  public:
    explicit AgentConnection(int fd) : fd_(fd) {}
    ~AgentConnection();
    AgentConnection(const AgentConnection &) = delete;
    AgentConnection &operator=(const AgentConnection &) = delete;

    // Whether the agent is still there and quiet (nothing to read, no hang-up): a dead
    // agent, a container killed or removed behind the pool's back, fails it. No engine call.
    [[nodiscard]] bool alive() const;
    // Runs `request`: its stdout and stderr go to `out` and `err` (kept up to their caps,
    // counted beyond). Waits for the answer until `answer_deadline` (none: as long as it
    // takes), polling the host's cancellation. Throws AgentLost, or sbx::Error(SBX_CANCELLED)
    // when the host cancels (the connection is then closed, which ends the run and the agent).
    AgentReply run(const AgentRequest &request, CappedOutput &out, CappedOutput &err,
                   std::optional<std::chrono::milliseconds> answer_deadline);

  private:
    void close_connection();
    int fd_;
};

// A listening socket at <folder>/agent.sock (mode 0666: the container's user may be any
// uid; the folder is the container's own and the file goes once the agent is accepted).
class AgentListener {
  public:
    // Throws AgentLost naming the path when the socket cannot be made.
    explicit AgentListener(const std::string &folder);
    ~AgentListener();
    AgentListener(const AgentListener &) = delete;
    AgentListener &operator=(const AgentListener &) = delete;

    // The agent's connection, once it has said hello; then the socket file is removed.
    // Throws AgentLost when it does not within `deadline` or `running` (asked every slice)
    // says the container's main process has gone, sbx::Error(SBX_CANCELLED) when the host
    // cancels meanwhile.
    std::unique_ptr<AgentConnection> accept(std::chrono::milliseconds deadline,
                                            const std::function<bool()> &running);

  private:
    int fd_ = -1;
    std::string path_;
};

}  // namespace sbx::docker
