// A drawn command seed.
#include "engine/command_seed.hpp"

#include <random>

namespace sbx::engine {

int64_t random_seed() {
    return static_cast<int64_t>(std::random_device{}() & 0x7fffffff);
}

}  // namespace sbx::engine
