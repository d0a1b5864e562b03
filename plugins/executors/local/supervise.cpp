// The parent's side of a run: poll() on the pidfd and both pipes, kill on deadline or
// cancellation, reap with wait4 (for rusage), then drain what the pipes still hold.
#include "supervise.hpp"

#include <poll.h>
#include <sys/wait.h>
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <csignal>

#include "support/sys_error.hpp"

namespace sbx::local {
namespace {

using Clock = std::chrono::steady_clock;

// The host's cancellation flag is polled at least this often.
constexpr std::chrono::milliseconds kCancelPollInterval{100};
// In process-group mode a descendant that left the group can hold a pipe open forever;
// after the target ended we read for at most this long.
constexpr std::chrono::milliseconds kDrainGrace{250};
// How long a target ended by SIGTERM, SIGINT or SIGHUP waits for the host to say it stops.
constexpr std::chrono::milliseconds kStopSignalGrace{200};

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

// SIGTERM, SIGINT, SIGHUP: what stops a host (scancel, Ctrl-C, a closed terminal) too.
bool ended_by_stop_signal(int wait_status) {
    if (!WIFSIGNALED(wait_status)) {
        return false;
    }
    const int signal_number = WTERMSIG(wait_status);
    return signal_number == SIGTERM || signal_number == SIGINT || signal_number == SIGHUP;
}

// The same signal may reach the target a moment before the host's handler marks the host
// as cancelled (scancel signals every process of the job at once): a short wait tells a
// stopped host from a program that ended by such a signal of its own.
bool host_stops_soon() {
    const Clock::time_point until = Clock::now() + kStopSignalGrace;
    while (!host::cancelled()) {
        if (Clock::now() >= until) {
            return false;
        }
        const timespec pause{0, 5000000};
        ::nanosleep(&pause, nullptr);
    }
    return true;
}

}  // namespace

Supervised supervise(RunningTarget &target, OutputCapture &out, OutputCapture &err,
                     std::optional<Clock::time_point> deadline) {
    Supervised result;
    for (;;) {
        pollfd fds[3];
        nfds_t count = 0;
        fds[count++] = pollfd{target.ended_fd(), POLLIN, 0};
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
    // A run that ended while the host was being stopped may have ended by the very signal
    // that stops the host (a Ctrl-C or scancel reaches the whole process group, and the
    // init forwards it to the target): not the program's verdict, so not recorded.
    if (!result.timed_out && host::cancelled()) {
        result.cancelled = true;
    }
    if (result.timed_out || result.cancelled) {
        target.kill();
    }
    result.exit = target.wait();
    if (!result.timed_out && !result.cancelled && ended_by_stop_signal(result.exit.wait_status)) {
        result.cancelled = host_stops_soon();
    }
    drain(out, err, Clock::now() + kDrainGrace);
    return result;
}

}  // namespace sbx::local
