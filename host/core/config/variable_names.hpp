// Names that become parts of environment variables (SANDBOX_UPSTREAM_<NAME>): services,
// upstreams and network mocks share the grammar and are compared as the variable spells
// them, so one reader cannot accept what another refuses.
#pragma once

#include <string>

namespace sbx::config {

// The name as its variable spells it: upper case.
std::string upper_name(std::string name);

// Letters, digits and `_`, not starting with a digit.
bool is_plain_name(const std::string &name);

}  // namespace sbx::config
