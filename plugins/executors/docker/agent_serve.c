/* docker-run-init --serve SOCKET: the agent, a warm container's main process (PID 1).
 * Connects to the host's socket and runs each RUN it is sent (agent_wire.h) as its child,
 * with no engine call: the target in a session of its own, stdin, stdout and stderr the
 * descriptors the host passed, the variables added to the container's own, the CPU-time
 * limit set on the target alone (RLIMIT_CPU counts each process's own time: the agent, alive
 * across runs, would reach it). At the run's timeout it kills every process of the
 * container but itself. After each run, as run_init.c does after an exec, every other
 * process is killed and reaped (as PID 1 it is every orphan's parent) and the scratch
 * folders emptied; then DONE is sent. The connection's end (the host gone, or cancelling a
 * run) kills the run and ends the agent, and the container with it. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent_wire.h"
#include "run_init.h"

static const char kName[] = SBX_RUN_INIT_NAME;

static void child_ended(int signal_number) {
    (void)signal_number; /* only interrupts ppoll */
}

static uint64_t now_us(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_nsec / 1000u;
}

static int read_exactly(int fd, void *buffer, size_t size) {
    char *at = buffer;
    while (size > 0) {
        const ssize_t got = read(fd, at, size);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            return 0;
        }
        at += got;
        size -= (size_t)got;
    }
    return 1;
}

static int send_frame(int connection, uint32_t type, const void *body, size_t body_size,
                      const char *text) {
    const size_t text_size = text != NULL ? strlen(text) : 0;
    const struct sbx_agent_frame header = {type, (uint32_t)(body_size + text_size)};
    struct iovec parts[3] = {
        {(void *)&header, sizeof header}, {(void *)body, body_size}, {(void *)text, text_size}};
    struct msghdr message = {0};
    message.msg_iov = parts;
    message.msg_iovlen = 3;
    size_t left = sizeof header + body_size + text_size;
    while (left > 0) {
        const ssize_t sent = sendmsg(connection, &message, MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR) {
            continue;
        }
        if (sent <= 0) {
            return 0;
        }
        left -= (size_t)sent;
        size_t done = (size_t)sent;
        while (message.msg_iovlen > 0 && done >= message.msg_iov[0].iov_len) {
            done -= message.msg_iov[0].iov_len;
            ++message.msg_iov;
            --message.msg_iovlen;
        }
        if (message.msg_iovlen > 0) {
            message.msg_iov[0].iov_base = (char *)message.msg_iov[0].iov_base + done;
            message.msg_iov[0].iov_len -= done;
        }
    }
    return 1;
}

/* The frame header, with the descriptors that came with its first byte (closed on exec). */
static int receive_header(int connection, struct sbx_agent_frame *header, int *fds, int *fd_count) {
    union {
        char bytes[CMSG_SPACE(3 * sizeof(int))];
        struct cmsghdr align;
    } control;
    struct iovec part = {header, sizeof *header};
    struct msghdr message = {0};
    message.msg_iov = &part;
    message.msg_iovlen = 1;
    message.msg_control = control.bytes;
    message.msg_controllen = sizeof control.bytes;
    ssize_t got;
    do {
        got = recvmsg(connection, &message, MSG_CMSG_CLOEXEC);
    } while (got < 0 && errno == EINTR);
    if (got <= 0) {
        return 0;
    }
    *fd_count = 0;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&message); c != NULL; c = CMSG_NXTHDR(&message, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
            const int count = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
            for (int i = 0; i < count; ++i) {
                int fd;
                memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
                if (*fd_count < 3) {
                    fds[(*fd_count)++] = fd;
                } else {
                    close(fd);
                }
            }
        }
    }
    return (size_t)got == sizeof *header ||
           read_exactly(connection, (char *)header + got, sizeof *header - (size_t)got);
}

static void close_all(int *fds, int count) {
    for (int i = 0; i < count; ++i) {
        close(fds[i]);
    }
}

static int answer_failure(int connection, const char *reason) {
    struct sbx_agent_done done = {0};
    done.status = kHelperFailed;
    done.flags = SBX_AGENT_HELPER_FAILED;
    char line[512];
    snprintf(line, sizeof line, "%s: %s", kName, reason);
    return send_frame(connection, SBX_AGENT_DONE, &done, sizeof done, line);
}

/* In the child: becomes the target, or exits 125 (its own failure) or 126/127 (as a shell
 * says a program it cannot run). */
static void become_target(const struct sbx_agent_run *request, char *cwd, char **env,
                          char **command, const int *fds) {
    reset_signals();
    setsid(); /* as under an exec, which runc starts in a session of its own */
    const int input = (request->flags & SBX_AGENT_HAS_STDIN) != 0
                          ? fds[2]
                          : open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (input < 0 || dup2(input, 0) < 0 || dup2(fds[0], 1) < 0 || dup2(fds[1], 2) < 0) {
        _exit(kHelperFailed);
    }
    if (chdir(cwd) != 0) {
        fprintf(stderr, "%s: cannot enter the working folder %s: %s\n", kName, cwd,
                strerror(errno));
        _exit(kHelperFailed);
    }
    for (char **variable = env; *variable != NULL; ++variable) {
        putenv(*variable);
    }
    if (request->cpu_time_soft_s > 0) {
        const struct rlimit limit = {request->cpu_time_soft_s, request->cpu_time_hard_s};
        if (setrlimit(RLIMIT_CPU, &limit) != 0) {
            fprintf(stderr, "%s: cannot limit the CPU time: %s\n", kName, strerror(errno));
            _exit(kHelperFailed);
        }
    }
    execvp(command[0], command);
    fprintf(stderr, "%s: %s\n", command[0], strerror(errno));
    _exit(errno == ENOENT ? 127 : 126);
}

/* Waits for the target, killing the run at its deadline; false when the host's end of the
 * connection went meanwhile (the run is then killed: the host gave up on it). */
static int wait_for_target(int connection, pid_t child, uint64_t timeout_ms, uint64_t started,
                           int *status, struct rusage *usage, int *timed_out) {
    sigset_t during_poll; /* SIGCHLD, blocked elsewhere, interrupts the wait */
    sigprocmask(SIG_SETMASK, NULL, &during_poll);
    sigdelset(&during_poll, SIGCHLD);
    for (;;) {
        struct rusage one;
        int one_status;
        pid_t reaped;
        while ((reaped = wait4(-1, &one_status, WNOHANG, &one)) > 0) {
            if (reaped == child) {
                *status = one_status;
                *usage = one;
                return 1;
            }
        }
        struct timespec slice = {0, 0};
        struct timespec *wait_at_most = NULL;
        if (timeout_ms > 0 && !*timed_out) {
            const uint64_t deadline = started + timeout_ms * 1000u;
            const uint64_t now = now_us();
            if (now >= deadline) {
                *timed_out = 1;
                kill(-1, SIGKILL); /* every process of the run: the agent is PID 1 */
                continue;
            }
            slice.tv_sec = (time_t)((deadline - now) / 1000000u);
            slice.tv_nsec = (long)((deadline - now) % 1000000u) * 1000L;
            wait_at_most = &slice;
        }
        struct pollfd host = {connection, POLLIN, 0};
        if (ppoll(&host, 1, wait_at_most, &during_poll) > 0 && host.revents != 0) {
            kill(-1, SIGKILL);
            return 0;
        }
    }
}

static int run_one(int connection, char *payload, size_t size, int *fds, int fd_count) {
    struct sbx_agent_run request;
    if (size < sizeof request) {
        close_all(fds, fd_count);
        return answer_failure(connection, "a request too short to read");
    }
    memcpy(&request, payload, sizeof request);
    const int wanted = (request.flags & SBX_AGENT_HAS_STDIN) != 0 ? 3 : 2;
    /* Items: the working folder, variables up to an empty item, then argv. */
    char *items = payload + sizeof request;
    const size_t items_size = size - sizeof request;
    if (fd_count != wanted || items_size == 0 || items[items_size - 1] != '\0') {
        close_all(fds, fd_count);
        return answer_failure(connection, "a request without its descriptors or items");
    }
    size_t count = 0;
    for (size_t at = 0; at < items_size; at += strlen(items + at) + 1) {
        ++count;
    }
    char **list = calloc(count + 1, sizeof *list);
    if (list == NULL) {
        close_all(fds, fd_count);
        return answer_failure(connection, "out of memory");
    }
    size_t n = 0;
    for (size_t at = 0; at < items_size; at += strlen(items + at) + 1) {
        list[n++] = items + at;
    }
    /* list: cwd, env..., "", argv..., NULL; the empty item becomes env's NULL. */
    size_t env_end = 1;
    while (env_end < n && list[env_end][0] != '\0') {
        ++env_end;
    }
    if (env_end + 1 >= n) {
        free(list);
        close_all(fds, fd_count);
        return answer_failure(connection, "a request that names no program");
    }
    list[env_end] = NULL;
    char **env = list + 1;
    char **command = list + env_end + 1;

    const uint64_t started = now_us();
    const pid_t child = fork();
    if (child < 0) {
        char reason[256];
        snprintf(reason, sizeof reason, "fork: %s", strerror(errno));
        free(list);
        close_all(fds, fd_count);
        return answer_failure(connection, reason);
    }
    if (child == 0) {
        become_target(&request, list[0], env, command, fds);
    }
    free(list);
    close_all(fds, fd_count); /* the run's processes hold them now: EOF once they are gone */
    int status = 0;
    int timed_out = 0;
    struct rusage usage;
    memset(&usage, 0, sizeof usage);
    const int host_there = wait_for_target(connection, child, request.timeout_ms, started, &status,
                                           &usage, &timed_out);
    const uint64_t ended = now_us();
    const int killed_all = kill_the_rest();
    empty_scratch("/tmp");
    empty_scratch("/dev/shm");
    if (!host_there) {
        return 0;
    }
    if (!killed_all) {
        return answer_failure(connection, "a process the run started could not be killed");
    }
    struct sbx_agent_done done = {0};
    done.status = timed_out             ? 128 + SIGKILL
                  : WIFSIGNALED(status) ? 128 + WTERMSIG(status)
                                        : WEXITSTATUS(status);
    done.flags = timed_out ? SBX_AGENT_TIMED_OUT : 0;
    done.wall_us = ended - started;
    done.user_us = (uint64_t)usage.ru_utime.tv_sec * 1000000u + (uint64_t)usage.ru_utime.tv_usec;
    done.system_us = (uint64_t)usage.ru_stime.tv_sec * 1000000u + (uint64_t)usage.ru_stime.tv_usec;
    done.max_rss_kb = (uint64_t)usage.ru_maxrss;
    return send_frame(connection, SBX_AGENT_DONE, &done, sizeof done, NULL);
}

int serve(const char *socket_path) {
    /* Not ptrace-able by the targets it runs, even of its own user. */
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    /* No handler for termination signals: as PID 1 the kernel then drops them when a
     * target sends them (a `kill 1`); the engine removes the container with SIGKILL. */
    signal(SIGPIPE, SIG_IGN);
    struct sigaction on_child;
    memset(&on_child, 0, sizeof on_child);
    on_child.sa_handler = child_ended;
    sigaction(SIGCHLD, &on_child, NULL);
    sigset_t child_signal;
    sigemptyset(&child_signal);
    sigaddset(&child_signal, SIGCHLD);
    sigprocmask(SIG_BLOCK, &child_signal, NULL); /* delivered only inside ppoll */

    struct sockaddr_un address = {0};
    address.sun_family = AF_UNIX;
    if (strlen(socket_path) >= sizeof address.sun_path) {
        fprintf(stderr, "%s: socket path too long: %s\n", kName, socket_path);
        return kHelperFailed;
    }
    strcpy(address.sun_path, socket_path);
    const int connection = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (connection < 0 ||
        connect(connection, (const struct sockaddr *)&address, sizeof address) != 0) {
        fprintf(stderr, "%s: cannot connect to the executor at %s: %s\n", kName, socket_path,
                strerror(errno));
        return kHelperFailed;
    }
    const struct sbx_agent_hello hello = {SBX_AGENT_VERSION, 0};
    if (!send_frame(connection, SBX_AGENT_HELLO, &hello, sizeof hello, NULL)) {
        return kHelperFailed;
    }
    for (;;) {
        struct sbx_agent_frame header;
        int fds[3];
        int fd_count = 0;
        if (!receive_header(connection, &header, fds, &fd_count)) {
            return 0; /* the host is done with this container */
        }
        if (header.type != SBX_AGENT_RUN || header.length > SBX_AGENT_MAX_PAYLOAD) {
            fprintf(stderr, "%s: a frame of type %u, %u bytes: not a run\n", kName, header.type,
                    header.length);
            return kHelperFailed;
        }
        char *payload = malloc(header.length + 1u);
        if (payload == NULL || !read_exactly(connection, payload, header.length)) {
            return kHelperFailed;
        }
        const int going_on = run_one(connection, payload, header.length, fds, fd_count);
        free(payload);
        if (!going_on) {
            return 0;
        }
    }
}
