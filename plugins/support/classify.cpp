// Run classification. A limit that *ended* the run (timeout, cpu_time, memory) decides the
// status; one that only *hurt* it (pids, disk) is named beside an RE/SG status; the CPU
// share only slows a run, so it is listed in limits_hit and never named as the limit.
#include "classify.hpp"

#include <signal.h>
#include <sys/wait.h>

#include <algorithm>

namespace sbx::support {
namespace {

bool contains(const std::vector<std::string> &items, const char *item) {
    return std::find(items.begin(), items.end(), item) != items.end();
}

}  // namespace

Verdict classify(const Evidence &evidence) {
    Verdict verdict;
    const bool signaled = WIFSIGNALED(evidence.wait_status);
    verdict.signal = signaled ? WTERMSIG(evidence.wait_status) : 0;
    verdict.exit_code = signaled ? 128 + verdict.signal : WEXITSTATUS(evidence.wait_status);

    // RLIMIT_CPU ends a target with SIGXCPU at the soft limit (only the kernel sends it for
    // that), or with SIGKILL at the hard one when the target handles or ignores SIGXCPU. The
    // CPU time reported can stay below the limit the kernel measured (tick sampling: natively
    // 0.9 s for a 1 s limit on a loaded machine), so SIGXCPU alone decides; a SIGKILL counts
    // when the CPU time reached the soft limit, which a wall-clock kill of a busy run cannot.
    const bool cpu_killed =
        evidence.cpu_soft_limit_s > 0 &&
        (verdict.signal == SIGXCPU ||
         (verdict.signal == SIGKILL && evidence.cpu_used_s >= evidence.cpu_soft_limit_s));
    if (evidence.wall_timeout) {
        verdict.limits_hit.emplace_back("timeout");
    }
    if (cpu_killed) {
        verdict.limits_hit.emplace_back("cpu_time");
    }
    if (evidence.oom_kills > 0) {
        verdict.limits_hit.emplace_back("memory");
    }
    if (evidence.pids_refused > 0) {
        verdict.limits_hit.emplace_back("pids");
    }
    if (verdict.signal == SIGXFSZ || evidence.file_size_reached || evidence.workspace_full) {
        verdict.limits_hit.emplace_back("disk");
    }
    if (evidence.cpu_throttled) {
        verdict.limits_hit.emplace_back("cpu");  // slowed, never ended: not a `limit` below
    }

    const bool clean_exit = !signaled && verdict.exit_code == 0;
    if (evidence.wall_timeout) {
        verdict.status = "TO";
        verdict.limit = "timeout";
    } else if (cpu_killed) {
        verdict.status = "TO";
        verdict.limit = "cpu_time";
    } else if (evidence.oom_kills > 0 && !clean_exit) {
        // Also when the OOM killer hit a child and the target (a shell) exited 137.
        verdict.status = "OOM";
        verdict.limit = "memory";
    } else if (clean_exit) {
        verdict.status = "OK";
    } else {
        verdict.status = signaled ? "SG" : "RE";
        for (const char *hurt : {"memory", "pids", "disk"}) {
            if (contains(verdict.limits_hit, hurt)) {
                verdict.limit = hurt;
                break;
            }
        }
    }
    return verdict;
}

}  // namespace sbx::support
