// A run whose argv items or environment values are not valid UTF-8 cannot be created
// through the engine's JSON API (the engine, in Go, replaces invalid UTF-8 with U+FFFD), so
// its command travels as a file in the container's private, read-only folder instead, and
// docker-run-init (run_init.c) reads it: `run-init --command-file PATH`.
#pragma once

#include <string>
#include <vector>

#include "run_spec.hpp"

namespace sbx::docker {

// Whether `spec`'s argv or env holds bytes the engine's API cannot carry.
bool needs_command_file(const RunSpec &spec);

// Writes, at `host_path`, the file for `command` (docker-run-init first): the variables of
// the spec's env that are not valid UTF-8 as NAME=VALUE, an empty item, then the items
// after docker-run-init; each item ends with a NUL (a C string holds none). Returns the
// command that reads it, docker-run-init --command-file `container_path`. Throws
// std::runtime_error when the file cannot be written.
std::vector<std::string> command_through_file(const RunSpec &spec,
                                              const std::vector<std::string> &command,
                                              const std::string &host_path,
                                              const std::string &container_path);

}  // namespace sbx::docker
