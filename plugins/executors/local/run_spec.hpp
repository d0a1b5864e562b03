// The run spec as the local executor reads it: the shared reader (support/run_spec.hpp)
// with this executor's settings filling what a spec leaves out.
#pragma once

#include <string>

#include "config.hpp"
#include "support/run_spec.hpp"

namespace sbx::local {

// Parses `spec_json`; absent limits and the filesystem come from `config`. Throws
// sbx::Error(SBX_INVALID) naming the offending field.
support::RunSpec parse_run_spec(const std::string &spec_json, const ExecutorConfig &config);

}  // namespace sbx::local
