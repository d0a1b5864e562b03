// The engine's one stop signal, in a header of its own: the lowest layers of the engine
// (the workflow runner) throw it and the commands catch it, without either including the
// cell runner that used to hold it.
#pragma once

#include <stdexcept>

namespace sbx::engine {

// The host was asked to stop (SIGINT/SIGTERM); completed runs are already committed.
class Cancelled : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

}  // namespace sbx::engine
