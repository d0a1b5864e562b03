/* The wire between the docker executor and the agent in a warm container (docker-run-init
 * --serve): the one definition both ends compile, C (run_init.c) and C++ (agent_client.cpp).
 *
 * Rationale: a pooled run through the Engine API costs an exec (create, start, inspect:
 * ~45 ms of runc and daemon work); a process already running in the container that is
 * handed the run over a unix socket costs a fork. The host listens on a socket in the
 * container's private folder (bind-mounted read-only at /.sbx-io: connecting to a socket
 * needs no write access to its mount), the agent connects once at start, and the host
 * unlinks the socket file as soon as it has accepted: nothing else can connect, and nothing
 * the target does can reach the host's end but through the agent.
 *
 * Frames on a SOCK_STREAM connection, both ends on one machine (native byte order):
 *   struct sbx_agent_frame, then `length` bytes of payload.
 *   HELLO (agent -> host, once, right after connect): struct sbx_agent_hello.
 *   RUN   (host -> agent): struct sbx_agent_run, then NUL-terminated items: the working
 *         folder, NAME=VALUE variables (never empty), an empty item, then argv (items may be
 *         empty; a C string holds no NUL, so any other byte travels as it is: no UTF-8
 *         needed, unlike the engine's JSON). The frame header's first byte carries
 *         SCM_RIGHTS: the write ends of stdout and stderr, then stdin when
 *         SBX_AGENT_HAS_STDIN (otherwise the target reads /dev/null, as under an exec).
 *   DONE  (agent -> host): struct sbx_agent_done, then a message (no NUL) when
 *         SBX_AGENT_HELPER_FAILED: the line docker-run-init would have printed.
 * One RUN at a time; the agent answers each with one DONE after the run's processes are
 * gone and /tmp and /dev/shm are empty. The connection's end ends the agent, and so the
 * container: a host that dies leaves stopped containers, which the sweep removes. */
#ifndef SBX_DOCKER_AGENT_WIRE_H
#define SBX_DOCKER_AGENT_WIRE_H

#include <stdint.h>

#define SBX_AGENT_VERSION 1u
/* The largest payload either end accepts (argv and env: the kernel's own limit is lower). */
#define SBX_AGENT_MAX_PAYLOAD (64u << 20)

enum sbx_agent_type { SBX_AGENT_HELLO = 1, SBX_AGENT_RUN = 2, SBX_AGENT_DONE = 3 };

struct sbx_agent_frame {
    uint32_t type;   /* enum sbx_agent_type */
    uint32_t length; /* payload bytes that follow */
};

struct sbx_agent_hello {
    uint32_t version; /* SBX_AGENT_VERSION */
    uint32_t reserved;
};

/* sbx_agent_run.flags */
#define SBX_AGENT_HAS_STDIN 1u

struct sbx_agent_run {
    uint64_t timeout_ms;      /* wall clock from the fork; 0: none */
    uint64_t cpu_time_soft_s; /* RLIMIT_CPU for the target; 0: none */
    uint64_t cpu_time_hard_s;
    uint32_t flags;
    uint32_t reserved;
};

/* sbx_agent_done.flags */
#define SBX_AGENT_TIMED_OUT 1u     /* the agent killed the run at timeout_ms */
#define SBX_AGENT_HELPER_FAILED 2u /* status is 125 and the message says why */

struct sbx_agent_done {
    int32_t status; /* the exit code, or 128 + N for signal N (what an exec reports) */
    uint32_t flags;
    uint64_t wall_us; /* fork to the target's end */
    uint64_t user_us; /* the target's and its waited-for children's rusage */
    uint64_t system_us;
    uint64_t max_rss_kb;
};

#endif
