// The parent's side of a run: poll() on the pidfd and both pipes, kill on deadline or
// cancellation, reap with wait4 (for rusage), then drain what the pipes still hold.
#include "supervise.hpp"

#include <poll.h>

#include <algorithm>
#include <cerrno>

#include "support/sys_error.hpp"

namespace sbx::local {
namespace {

using Clock = std::chrono::steady_clock;

// The host's cancellation flag is polled at least this often.
constexpr std::chrono::milliseconds kCancelPollInterval{100};
// In process-group mode a descendant that left the group can hold a pipe open forever;
// after the target ended we read for at most this long.
constexpr std::chrono::milliseconds kDrainGrace{250};

timespec to_timespec(Clock::duration duration) {
    const auto nanoseconds = std::chrono::duration_cast<std::chrono::nanoseconds>(duration);
    timespec spec{};
    spec.tv_sec = static_cast<time_t>(nanoseconds.count() / 1000000000);
    spec.tv_nsec = static_cast<long>(nanoseconds.count() % 1000000000);
    return spec;
}

// Waits until one of `fds` is ready or `wait` has passed. Returns the number ready.
int wait_for(pollfd *fds, nfds_t count, Clock::duration wait) {
    const timespec timeout =
        to_timespec(wait < Clock::duration::zero() ? Clock::duration::zero() : wait);
    const int ready = ::ppoll(fds, count, &timeout, nullptr);
    if (ready < 0 && errno != EINTR) {
        support::throw_system_error("poll on the target's pipes", errno);
    }
    return ready < 0 ? 0 : ready;
}

// Adds the capture's pipe to `fds` when it is still open.
void watch(OutputCapture &capture, pollfd *fds, nfds_t &count) {
    if (capture.open()) {
        fds[count++] = pollfd{capture.fd(), POLLIN, 0};
    }
}

void drain(OutputCapture &out, OutputCapture &err, Clock::time_point until) {
    while (out.open() || err.open()) {
        pollfd fds[2];
        nfds_t count = 0;
        watch(out, fds, count);
        watch(err, fds, count);
        const Clock::duration left = until - Clock::now();
        if (left <= Clock::duration::zero()) {
            return;
        }
        if (wait_for(fds, count, left) > 0) {
            out.read_available();
            err.read_available();
        }
    }
}

}  // namespace

Supervised supervise(Target &target, OutputCapture &out, OutputCapture &err,
                     std::optional<Clock::time_point> deadline) {
    Supervised result;
    for (;;) {
        pollfd fds[3];
        nfds_t count = 0;
        fds[count++] = pollfd{target.pidfd(), POLLIN, 0};
        watch(out, fds, count);
        watch(err, fds, count);

        Clock::duration wait = kCancelPollInterval;
        if (deadline) {
            wait = std::min(wait, *deadline - Clock::now());
        }
        wait_for(fds, count, wait);
        // Read on every wakeup: a full pipe would stall the target.
        out.read_available();
        err.read_available();

        if ((fds[0].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
            break;  // the target (and, in a PID namespace, all it started) has ended
        }
        if (deadline && Clock::now() >= *deadline) {
            result.timed_out = true;
            break;
        }
        if (host::cancelled()) {
            result.cancelled = true;
            break;
        }
    }
    if (result.timed_out || result.cancelled) {
        target.kill();
    }
    result.exit = target.wait();
    drain(out, err, Clock::now() + kDrainGrace);
    return result;
}

}  // namespace sbx::local
