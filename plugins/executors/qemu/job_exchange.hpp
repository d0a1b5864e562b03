// A run as files in the guest's share: what the host writes before "run N" (argv, env,
// stdin, limits, and a copy of the workspace in work/) and what it reads after "done N"
// (the agent's report, stdout, stderr, and work/ copied back into the workspace).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "support/run_spec.hpp"

namespace sbx::qemu {

// The agent's `result` file, as numbers and texts by key.
struct AgentReport {
    std::map<std::string, std::string> fields;
    std::string stdout_text;
    std::string stderr_text;

    [[nodiscard]] std::uint64_t number(const std::string &key) const;
    [[nodiscard]] std::string text(const std::string &key) const;
};

// The path the guest sees for job `id`'s folder (the share is mounted at /mnt).
std::string guest_job_dir(std::uint64_t id);

// Writes job `id` into `share`/jobs/<id>: the command, the target's environment (PATH,
// HOME and TMPDIR set as the local executor does, then the spec's), the limits, and the
// workspace's files. Throws std::runtime_error when the share cannot take it.
void write_job(const std::string &share, std::uint64_t id, const support::RunSpec &spec,
               const std::string &workspace);

// Reads the agent's report for job `id`, stdout and stderr at most `output_cap` bytes each;
// throws std::runtime_error when a file is missing, a link, or not a regular file.
AgentReport read_report(const std::string &share, std::uint64_t id, std::size_t output_cap);

// Makes `workspace` hold what the job's work/ holds now (files the command wrote, changed or
// removed; links as links; FIFOs, sockets and devices left out), then deletes the job
// folder. Returns how many entries could not be brought back.
std::size_t finish_job(const std::string &share, std::uint64_t id, const std::string &workspace);

}  // namespace sbx::qemu
