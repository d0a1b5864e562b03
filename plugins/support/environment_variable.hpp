// How a plugin reads an environment variable: in one place, so every plugin takes an empty
// variable as unset (as the host's SANDBOX_* table does) and the variables a plugin reads,
// its own SANDBOX_* ones above all, are found by one search.
#pragma once

#include <cstdlib>

namespace sbx::support {

// The variable's value; nullptr when it is unset or empty.
inline const char *environment_variable(const char *name) {
    const char *value = std::getenv(name);
    return value != nullptr && *value != '\0' ? value : nullptr;
}

}  // namespace sbx::support
