// What the host asked a job to run, read from its job folder: `argv` and `env`
// (NUL-separated) and `limits` ("key value" lines; a missing key reads as 0).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sbx::guest {

struct JobRequest {
    std::vector<std::string> argv;  // never empty
    std::vector<std::string> env;
    std::map<std::string, std::string> limits;

    // The limit `key` as a whole number; 0 when absent or not a number.
    [[nodiscard]] std::uint64_t limit(const char *key) const;
    // The limit `key` as a decimal (cpu_cores); 0 when absent or not a number.
    [[nodiscard]] double decimal_limit(const char *key) const;
};

// The request in `job_dir`; nullopt when argv, env or limits cannot be read or argv is
// empty.
std::optional<JobRequest> read_job_request(const std::string &job_dir);

}  // namespace sbx::guest
