// What a matrix tells whoever watches it (the terminal's progress line, the dashboard):
// how many runs it planned, and each run as it starts and ends. Called from the worker
// threads, so an observer synchronises itself; its calls must be quick and never throw.
#pragma once

#include <cstddef>
#include <string>

namespace sbx::engine {

class RunObserver {
  public:
    virtual ~RunObserver() = default;
    // `runs` more runs are to go (each run() of a matrix adds its own).
    virtual void planned(std::size_t runs) = 0;
    virtual void started(const std::string &workflow, const std::string &scenario,
                         const std::string &flag) = 0;
    virtual void finished(bool passed) = 0;
};

}  // namespace sbx::engine
