// A run as files in the guest's share: what the host writes before "run N" (the `job` file's
// request: argv, env, limits, stdin; and a copy of the workspace in work/) and what it reads
// after "done N" (the result the agent appended to `job`: its report, stdout, stderr; and
// work/ copied back into the workspace). One file, opened once by the agent: every 9p open
// and close costs the guest round trips to QEMU, each slow under emulation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "support/run_spec.hpp"

namespace sbx::qemu {

// The agent's result: its head as numbers and texts by key (phases_us: where the guest's
// time went, for the debug log), then the outputs.
struct AgentReport {
    std::map<std::string, std::string> fields;
    std::string stdout_text;
    std::string stderr_text;

    [[nodiscard]] std::uint64_t number(const std::string &key) const;
    [[nodiscard]] std::string text(const std::string &key) const;
};

// The path the guest sees for job `id`'s folder (the share is mounted at /mnt).
std::string guest_job_dir(std::uint64_t id);

// Writes job `id` into `share`/jobs/<id> (new, or emptied by finish_job): the command, the target's
// environment (PATH, HOME and TMPDIR set as the local executor does, then the spec's), the limits
// and stdin in `job` (0600: the target, nobody in the guest, must not read it), and the workspace's
// files. Returns the request's size, where the result will start. Throws std::runtime_error when
// the share cannot take it.
std::size_t write_job(const std::string &share, std::uint64_t id, const support::RunSpec &spec,
                      const std::string &workspace);

// Reads the agent's report for job `id` from `request_bytes` into its `job` file on, stdout
// and stderr at most `output_cap` bytes each; throws std::runtime_error when `job` is
// missing, a link, not a regular file, or holds no complete report.
AgentReport read_report(const std::string &share, std::uint64_t id, std::size_t request_bytes,
                        std::size_t output_cap);

struct FinishedJob {
    std::size_t skipped = 0;  // entries of work/ that could not be brought back
    bool reusable = false;    // the folder is empty again, ready for the next run
};

// Makes `workspace` hold what the job's work/ holds now (files the command wrote, changed or
// removed; links as links; FIFOs, sockets and devices left out), then empties work/ and the
// `job` file for the folder's next run (the agent keeps both open), or, when something in it
// cannot be removed, deletes the folder and says it cannot be reused.
FinishedJob finish_job(const std::string &share, std::uint64_t id, const std::string &workspace);

}  // namespace sbx::qemu
