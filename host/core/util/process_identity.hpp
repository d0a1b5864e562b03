// Telling whether a recorded process is still the same process: a pid alone can be
// reused, a (pid, start time) pair cannot.
#pragma once

#include <sys/types.h>

#include <string>

namespace sbx {

// The start time of `pid` in clock ticks since boot (field 22 of /proc/PID/stat); 0 when
// there is no such process.
unsigned long long process_start_time(pid_t pid);

// "<pid> <start time>" of this process, as written into owner records.
std::string own_identity();

// True when `identity` ("<pid> <start time>") names a process that is still running.
bool identity_alive(const std::string &identity);

}  // namespace sbx
