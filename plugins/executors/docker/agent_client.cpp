// The run's descriptors are made here and passed with SCM_RIGHTS: stdout and stderr are
// pipes read while the run goes (the exec path's stream, without the engine), stdin a
// sealed memfd holding the bytes (a file, as under the exec path's redirection). Every wait
// is a poll in slices of kCancelSliceMs, so a host that cancels is answered at once.
#include "agent_client.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <sbx/plugin.hpp>

#include <array>
#include <cerrno>
#include <cstring>

#include "agent_wire.h"

namespace sbx::docker {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kCancelSliceMs = 50;
// After DONE every process of the run is gone, so the pipes end at once; a bound anyway.
constexpr std::chrono::milliseconds kDrainAfterDone{2000};

// A descriptor closed when the scope ends.
struct Fd {
    int fd = -1;
    Fd() = default;
    explicit Fd(int value) : fd(value) {}
    ~Fd() { reset(); }
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
    void reset() {
        if (fd >= 0) {
            ::close(fd);
        }
        fd = -1;
    }
};

std::string errno_text() {
    return std::strerror(errno);
}

void throw_if_cancelled(const char *what) {
    if (host::cancelled()) {
        throw Error(SBX_CANCELLED, std::string("cancelled by the host ") + what);
    }
}

// Sends the whole of `bytes`; the first call carries `fds` (attached to the first byte).
void send_all(int connection, const std::string &bytes, const std::vector<int> &fds) {
    std::size_t sent_total = 0;
    bool fds_sent = fds.empty();
    while (sent_total < bytes.size()) {
        iovec part{const_cast<char *>(bytes.data()) + sent_total, bytes.size() - sent_total};
        msghdr message{};
        message.msg_iov = &part;
        message.msg_iovlen = 1;
        std::array<char, CMSG_SPACE(3 * sizeof(int))> control{};
        if (!fds_sent) {
            message.msg_control = control.data();
            message.msg_controllen = CMSG_SPACE(fds.size() * sizeof(int));
            cmsghdr *header = CMSG_FIRSTHDR(&message);
            header->cmsg_level = SOL_SOCKET;
            header->cmsg_type = SCM_RIGHTS;
            header->cmsg_len = CMSG_LEN(fds.size() * sizeof(int));
            std::memcpy(CMSG_DATA(header), fds.data(), fds.size() * sizeof(int));
        }
        const ssize_t sent = ::sendmsg(connection, &message, MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR) {
            continue;
        }
        if (sent <= 0) {
            throw AgentLost("cannot send the run to the agent: " + errno_text());
        }
        fds_sent = true;
        sent_total += static_cast<std::size_t>(sent);
    }
}

// Reads exactly `size` bytes (the agent writes a frame at once); false at the end.
bool read_exactly(int fd, void *buffer, std::size_t size) {
    auto *at = static_cast<char *>(buffer);
    while (size > 0) {
        const ssize_t got = ::read(fd, at, size);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            return false;
        }
        at += got;
        size -= static_cast<std::size_t>(got);
    }
    return true;
}

// One frame: its type and payload. Throws AgentLost when the connection ends or the frame
// is not one the agent sends.
std::pair<std::uint32_t, std::string> read_frame(int connection) {
    sbx_agent_frame header{};
    if (!read_exactly(connection, &header, sizeof header)) {
        throw AgentLost("the agent ended (its connection closed)");
    }
    if (header.length > SBX_AGENT_MAX_PAYLOAD) {
        throw AgentLost("the agent sent a frame of " + std::to_string(header.length) + " bytes");
    }
    std::string payload(header.length, '\0');
    if (!read_exactly(connection, payload.data(), payload.size())) {
        throw AgentLost("the agent ended in the middle of a frame");
    }
    return {header.type, std::move(payload)};
}

std::string frame(std::uint32_t type, const std::string &payload) {
    const sbx_agent_frame header{type, static_cast<std::uint32_t>(payload.size())};
    std::string bytes(reinterpret_cast<const char *>(&header), sizeof header);
    return bytes + payload;
}

std::string run_payload(const AgentRequest &request) {
    sbx_agent_run fixed{};
    fixed.timeout_ms = request.timeout_ms;
    fixed.cpu_time_soft_s = request.cpu_time_s;
    fixed.cpu_time_hard_s = request.cpu_time_s > 0 ? request.cpu_time_s + 1 : 0;
    fixed.flags = request.stdin_bytes.empty() ? 0U : SBX_AGENT_HAS_STDIN;
    std::string payload(reinterpret_cast<const char *>(&fixed), sizeof fixed);
    const auto item = [&payload](const std::string &text) {
        payload += text;
        payload += '\0';
    };
    item(request.cwd);
    for (const auto &variable : request.env) {
        item(variable);
    }
    item("");
    for (const auto &word : request.argv) {
        item(word);
    }
    if (payload.size() > SBX_AGENT_MAX_PAYLOAD) {
        throw Error(SBX_INVALID, "the run's argv and environment hold " +
                                     std::to_string(payload.size()) +
                                     " bytes, more than the agent takes (64 MiB)");
    }
    return payload;
}

// A sealed memfd holding `bytes`, read from its start.
int stdin_file(const std::string &bytes) {
    Fd file(::memfd_create("sbx-stdin", MFD_CLOEXEC | MFD_ALLOW_SEALING));
    if (file.fd < 0) {
        throw Error(SBX_ERROR, "cannot hold the run's stdin (memfd_create): " + errno_text());
    }
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t wrote = ::write(file.fd, bytes.data() + done, bytes.size() - done);
        if (wrote < 0 && errno == EINTR) {
            continue;
        }
        if (wrote <= 0) {
            throw Error(SBX_ERROR, "cannot hold the run's stdin: " + errno_text());
        }
        done += static_cast<std::size_t>(wrote);
    }
    ::lseek(file.fd, 0, SEEK_SET);
    ::fcntl(file.fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
    const int kept = file.fd;
    file.fd = -1;
    return kept;
}

AgentReply reply_of(const std::string &payload) {
    sbx_agent_done done{};
    if (payload.size() < sizeof done) {
        throw AgentLost("the agent's answer is " + std::to_string(payload.size()) + " bytes");
    }
    std::memcpy(&done, payload.data(), sizeof done);
    AgentReply reply;
    reply.status = done.status;
    reply.timed_out = (done.flags & SBX_AGENT_TIMED_OUT) != 0;
    reply.helper_failed = (done.flags & SBX_AGENT_HELPER_FAILED) != 0;
    reply.message = payload.substr(sizeof done);
    reply.wall_s = static_cast<double>(done.wall_us) / 1e6;
    reply.user_s = static_cast<double>(done.user_us) / 1e6;
    reply.system_s = static_cast<double>(done.system_us) / 1e6;
    reply.max_rss_kb = done.max_rss_kb;
    return reply;
}

}  // namespace

AgentConnection::~AgentConnection() {
    close_connection();
}

void AgentConnection::close_connection() {
    if (fd_ >= 0) {
        ::close(fd_);
        fd_ = -1;
    }
}

bool AgentConnection::alive() const {
    if (fd_ < 0) {
        return false;
    }
    pollfd check{fd_, POLLIN | POLLRDHUP, 0};
    return ::poll(&check, 1, 0) == 0;
}

AgentReply AgentConnection::run(const AgentRequest &request, CappedOutput &out, CappedOutput &err,
                                std::optional<std::chrono::milliseconds> answer_deadline) {
    if (fd_ < 0) {
        throw AgentLost("the agent's connection is closed");
    }
    const std::string payload = run_payload(request);
    std::array<int, 2> out_pipe{};
    std::array<int, 2> err_pipe{};
    if (::pipe2(out_pipe.data(), O_CLOEXEC) != 0) {
        throw Error(SBX_ERROR, "cannot make the run's stdout pipe: " + errno_text());
    }
    Fd out_read(out_pipe[0]);
    Fd out_write(out_pipe[1]);
    if (::pipe2(err_pipe.data(), O_CLOEXEC) != 0) {
        throw Error(SBX_ERROR, "cannot make the run's stderr pipe: " + errno_text());
    }
    Fd err_read(err_pipe[0]);
    Fd err_write(err_pipe[1]);
    Fd input;
    std::vector<int> fds = {out_write.fd, err_write.fd};
    if (!request.stdin_bytes.empty()) {
        input.fd = stdin_file(request.stdin_bytes);
        fds.push_back(input.fd);
    }
    send_all(fd_, frame(SBX_AGENT_RUN, payload), fds);
    // Only the run's processes hold the write ends now: the pipes end when they are gone.
    out_write.reset();
    err_write.reset();
    input.reset();

    const Clock::time_point sent = Clock::now();
    std::optional<AgentReply> reply;
    Clock::time_point drain_until;
    std::array<char, 65536> buffer{};
    while (!reply || out_read.fd >= 0 || err_read.fd >= 0) {
        if (host::cancelled()) {
            close_connection();  // the agent kills the run and ends
            throw Error(SBX_CANCELLED, "run cancelled by the host; its container is removed");
        }
        const auto now = Clock::now();
        if (reply && now >= drain_until) {
            break;  // every process of the run is gone; a pipe still open is not the run's
        }
        if (!reply && answer_deadline && now - sent >= *answer_deadline) {
            throw AgentLost("the agent did not answer within " +
                                std::to_string(answer_deadline->count()) + " ms",
                            true);
        }
        std::array<pollfd, 3> watched = {pollfd{reply ? -1 : fd_, POLLIN, 0},
                                         pollfd{out_read.fd, POLLIN, 0},
                                         pollfd{err_read.fd, POLLIN, 0}};
        if (::poll(watched.data(), watched.size(), kCancelSliceMs) < 0 && errno != EINTR) {
            throw AgentLost("poll: " + errno_text());
        }
        for (std::size_t i = 1; i < watched.size(); ++i) {
            if (watched[i].revents == 0) {
                continue;
            }
            Fd &pipe = i == 1 ? out_read : err_read;
            CappedOutput &capture = i == 1 ? out : err;
            const ssize_t got = ::read(pipe.fd, buffer.data(), buffer.size());
            if (got > 0) {
                capture.append(buffer.data(), static_cast<std::size_t>(got));
            } else if (got == 0 || errno != EINTR) {
                pipe.reset();
            }
        }
        if (watched[0].revents != 0) {
            auto [type, body] = read_frame(fd_);
            if (type != SBX_AGENT_DONE) {
                throw AgentLost("the agent sent a frame of type " + std::to_string(type) +
                                " during a run");
            }
            reply = reply_of(body);
            drain_until = Clock::now() + kDrainAfterDone;
        }
    }
    return *reply;
}

AgentListener::AgentListener(const std::string &folder) : path_(folder + "/" + kAgentSocketName) {
    // Bound through the folder's descriptor: a socket path is at most 107 bytes, and a
    // state_dir may be deeper than that.
    Fd folder_fd(::open(folder.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (folder_fd.fd < 0) {
        throw AgentLost("cannot open " + folder + ": " + errno_text());
    }
    const std::string short_path =
        "/proc/self/fd/" + std::to_string(folder_fd.fd) + "/" + kAgentSocketName;
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, short_path.c_str(), short_path.size() + 1);
    // The container's user may be any uid (`user`, a rootless engine's subordinate ids):
    // it must reach the socket, by its name only (the folder is the container's own).
    ::chmod(folder.c_str(), 0711);
    fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) {
        throw AgentLost("cannot make the agent's socket: " + errno_text());
    }
    if (::bind(fd_, reinterpret_cast<const sockaddr *>(&address), sizeof address) != 0 ||
        ::chmod(path_.c_str(), 0666) != 0 || ::listen(fd_, 1) != 0) {
        const std::string reason = errno_text();
        ::close(fd_);
        fd_ = -1;
        ::unlink(path_.c_str());
        throw AgentLost("cannot listen on " + path_ + ": " + reason);
    }
}

AgentListener::~AgentListener() {
    if (fd_ >= 0) {
        ::close(fd_);
        ::unlink(path_.c_str());
    }
}

std::unique_ptr<AgentConnection> AgentListener::accept(std::chrono::milliseconds deadline,
                                                       const std::function<bool()> &running) {
    const Clock::time_point until = Clock::now() + deadline;
    pollfd listening{fd_, POLLIN, 0};
    for (;;) {
        throw_if_cancelled("while a pooled container's agent started");
        if (Clock::now() >= until) {
            throw AgentLost("its agent did not connect to " + path_ + " within " +
                            std::to_string(deadline.count()) + " ms");
        }
        if (!running()) {
            throw AgentLost("its agent ended before it connected to " + path_);
        }
        const int ready = ::poll(&listening, 1, kCancelSliceMs);
        if (ready > 0) {
            break;
        }
        if (ready < 0 && errno != EINTR) {
            throw AgentLost("poll: " + errno_text());
        }
    }
    Fd accepted(::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC));
    ::close(fd_);
    fd_ = -1;
    ::unlink(path_.c_str());  // nothing else can connect now
    if (accepted.fd < 0) {
        throw AgentLost("accept on " + path_ + ": " + errno_text());
    }
    pollfd hello{accepted.fd, POLLIN, 0};
    while (::poll(&hello, 1, kCancelSliceMs) == 0) {
        throw_if_cancelled("while a pooled container's agent started");
        if (Clock::now() >= until) {
            throw AgentLost("its agent connected but did not say hello within " +
                            std::to_string(deadline.count()) + " ms");
        }
    }
    const auto [type, body] = read_frame(accepted.fd);
    sbx_agent_hello said{};
    if (type != SBX_AGENT_HELLO || body.size() < sizeof said) {
        throw AgentLost("its agent's first frame is not a hello (type " + std::to_string(type) +
                        ")");
    }
    std::memcpy(&said, body.data(), sizeof said);
    if (said.version != SBX_AGENT_VERSION) {
        throw AgentLost("its agent speaks version " + std::to_string(said.version) + ", not " +
                        std::to_string(SBX_AGENT_VERSION) +
                        " (docker-run-init and docker.so from different builds)");
    }
    auto connection = std::make_unique<AgentConnection>(accepted.fd);
    accepted.fd = -1;
    return connection;
}

}  // namespace sbx::docker
