// What the engine is asked to create for a run: the create body (image, command, env,
// workspace bind mount, limits, labels) and the key under which a warm container of the
// same shape can be reused. Pure: no engine call, so it reads in one place.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config.hpp"
#include "run_spec.hpp"

namespace sbx::docker {

// Where a container's private folder (stdin files) appears inside it, read-only.
inline constexpr const char kIoMount[] = "/.sbx-io";

// Who created a container: the label key (SANDBOX_POOL_LABEL) and the host process, so
// sweep() can tell a dead host's containers from a live one's and from foreign ones.
struct Owner {
    std::string label;
    long pid = 0;
    unsigned long long start_time = 0;
    static Owner current(const std::string &label);
};

// Where a run with a network namespace finds the helper and the namespace file.
inline constexpr const char kNetnsHelperMount[] = "/.sbx-bin/netns-exec";
inline constexpr const char kNetnsMount[] = "/.sbx-netns";
// Where every container finds docker-run-init (run_init.c), which runs each target.
inline constexpr const char kRunInitMount[] = "/.sbx-bin/run-init";

struct ContainerPlan {
    nlohmann::json create_body;
    // Equal for runs that may share a warm container (image, user, limits, network,
    // workspace); empty for one-shot plans.
    std::string pool_key;
    // How each requested limit is enforced, for the result's `enforcement`.
    nlohmann::json enforcement;
};

// `command`: what the container runs (the target, or the pool's keep-alive command).
// `io_folder`: a host folder bind-mounted read-only at kIoMount, or "" for none.
ContainerPlan plan_container(const RunSpec &spec, const ExecutorConfig &config, const Owner &owner,
                             const std::vector<std::string> &command, const std::string &io_folder,
                             bool pooled);

// Turns a pooled plan into one whose container's main process is the agent
// (docker-run-init --serve, connecting to `socket_inside`), which runs every target: the
// PidsLimit counts it alone (no keep-alive), and the CPU-time limit is left to the agent,
// which sets it on each target (RLIMIT_CPU counts a process's own time, and the agent lives
// across runs). The pool key stays: both transports run a spec alike.
void serve_through_agent(ContainerPlan &plan, const std::string &socket_inside);

// The target's environment: HOME and TMPDIR in the workspace, LANG=C.UTF-8, then the
// spec's env (which wins). The image's own variables (PATH) stay unless the spec sets them.
// A value that is not valid UTF-8 is left out: the run's command file carries it.
std::vector<std::string> target_environment(const RunSpec &spec, const std::string &workspace);

// argv under docker-run-init (the target never PID 1, nothing it starts outliving it), and,
// when stdin is not empty, behind a /bin/sh that redirects the stdin file (`stdin_path`
// inside the container). Rationale: the engine can feed stdin only through an attach (a
// hijacked, bidirectional connection); a file in the container's private, read-only folder
// gives the same bytes without one, at the price of needing /bin/sh.
std::vector<std::string> target_command(const RunSpec &spec, const std::string &stdin_path);

// Labels on everything the executor creates.
nlohmann::json owner_labels(const Owner &owner, const std::string &role);

}  // namespace sbx::docker
