// The seed of a command run without --seed: drawn once, recorded with its session, so the
// run can be made again with --seed.
#pragma once

#include <cstdint>

namespace sbx::engine {

// From 0 to 2^31 - 1: short enough to retype.
int64_t random_seed();

}  // namespace sbx::engine
