// Whole-file reads and writes for the agent: job files in the share, cgroup and /proc knobs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace sbx::guest {

// The whole file, or nullopt when it cannot be opened or read to the end.
std::optional<std::string> read_file(const std::string &path);

// Writes all of `text`. `create`: makes or truncates the file (a job's result); otherwise the
// file must exist and gets one write (a cgroup or /proc knob). False on any failure.
bool write_file(const std::string &path, const std::string &text, bool create = false);

// Writes all of `text` into `fd` at `offset`, retrying short writes; false on an error.
bool write_all_at(int fd, const std::string &text, std::uint64_t offset);

}  // namespace sbx::guest
