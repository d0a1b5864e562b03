// What the running command's matrix has done so far, for the servers it started
// (--dashboard-port, --metrics-port): the database holds only what is committed, and the
// live page and the exporter also show the runs planned and the run in flight.
#pragma once

#include <cstdint>
#include <string>

namespace sbx::dashboard {

struct LiveSnapshot {
    bool active = false;  // a matrix of this process has planned runs
    uint64_t planned = 0;
    uint64_t done = 0;
    uint64_t failed = 0;
    double elapsed_s = 0;
    std::string current;  // "workflow / scenario (flag)"
};

// A server of this process shows them: the progress observer feeds them (else it need
// not observe at all when it draws nothing).
void enable_live();
bool live_enabled();

// Process-wide: the progress observer feeds them, the servers read them.
void live_planned(uint64_t runs);
void live_started(const std::string &current);
void live_finished(bool passed);
LiveSnapshot live_snapshot();

}  // namespace sbx::dashboard
