// The hardening tip printed for a scenario a workflow fails: what to change in the target
// so that it copes with the condition the scenario injects.
#pragma once

#include <string>

namespace sbx::scoring {

// The tip for `scenario` (a default scenario, a canonical profile or one of their
// aliases); a generic tip for any other name.
std::string hardening_tip(const std::string &scenario);

}  // namespace sbx::scoring
