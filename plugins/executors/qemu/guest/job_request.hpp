// What the host asked a job to run: the request at the start of the job folder's `job` file
// (the agent writes the result after it, in the same file). Its layout, written by the host's
// job_exchange.cpp: a first line "request <bytes>\n" giving the size of the rest, then
// sections "<name> <bytes>\n<bytes of content>": `argv` and `env` (NUL-separated), `limits`
// ("key value" lines; a missing key reads as 0) and `stdin`.
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
    std::string stdin_text;
    std::uint64_t bytes = 0;  // the request's size in its file: the result goes after it

    // The limit `key` as a whole number; 0 when absent or not a number.
    [[nodiscard]] std::uint64_t limit(const char *key) const;
    // The limit `key` as a decimal (cpu_cores); 0 when absent or not a number.
    [[nodiscard]] double decimal_limit(const char *key) const;
};

// The request in `text`; nullopt when it is cut short, a section overruns it, or argv is
// missing or empty.
std::optional<JobRequest> parse_job_request(const std::string &text);

// Reads the request from the start of `file` (with pread: the descriptor is kept from run to
// run) and parses it. Nullopt when it cannot be read or parsed.
std::optional<JobRequest> read_job_request(int file);

}  // namespace sbx::guest
