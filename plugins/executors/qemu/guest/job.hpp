// One command the host queued in the share: read from the job folder, run in its own cgroup
// with the limits the host asked for, and what happened written back into the same folder.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <sbx/unique_fd.hpp>

#include "cgroup.hpp"

namespace sbx::guest {

// A job folder (jobs/<N> in the share), opened once by the agent and kept: the host reuses
// it run after run, rewriting `job` and refilling `work/` in place.
struct JobFolder {
    UniqueFd job_file;  // read and write: the request, then the result after it
    UniqueFd work;      // O_PATH: the target's working folder
};

// Opens jobs/<id> in the share's jobs/ folder open as `jobs_fd`; "" or what is missing.
std::string open_job_folder(int jobs_fd, const std::string &id, JobFolder &folder);

struct JobOutcome {
    // "" or what went wrong before the command could start (the job folder is unreadable,
    // say).
    std::string problem;
    // The job's cgroup, already emptied (its processes are killed when the target ends):
    // removed when the caller lets go of it, after answering, so the answer waits for
    // nothing the next run needs.
    std::unique_ptr<JobCgroup> cgroup;
};

// Runs the job in `folder` (jobs/<id>) and writes the result into its `job` file after the
// request; its cgroup is job-<serial>. `received_ns` (CLOCK_MONOTONIC) is when its "run"
// line came, so the result's `phases_us` ("start,request,setup,target,collect",
// microseconds) covers its whole stay.
JobOutcome run_job(const JobFolder &folder, const std::string &id, std::uint64_t serial,
                   std::int64_t received_ns);

}  // namespace sbx::guest
