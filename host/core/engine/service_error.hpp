// What a service failure throws, in a header of its own: the readiness probe, the mock
// responder and the service set raise or catch it without including the service process.
#pragma once

#include <stdexcept>

namespace sbx::engine {

// A service that could not start, was not ready in time, or died: the message names it and
// carries its last output.
class ServiceError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

}  // namespace sbx::engine
