// Telling whether a recorded process is still the same process: a pid alone can be
// reused, a (pid, start time) pair cannot.
#pragma once

#include <sys/types.h>

#include <string>

namespace sbx {

// This machine's name (its hostname), as owner records and Slurm node folders carry it.
std::string machine_name();

// "<pid> <start time> <machine>" of this process, as written into owner records.
std::string own_identity();

// True when `identity` ("<pid> <start time>", optionally "<machine>") names a process
// that is still running, or one of another machine (which this one cannot judge).
bool identity_alive(const std::string &identity);

}  // namespace sbx
