// Where sandbox-runner keeps a user's workspaces when TMPDIR is set, spelled out here
// rather than taken from sbx/user_state.hpp, so that a test notices when the rule changes.
#pragma once

#include <unistd.h>

#include <string>

namespace sbx::test {

inline std::string state_folder_in(const std::string &tmpdir, uid_t uid = ::geteuid()) {
    return tmpdir + "/sandbox-runner-" + std::to_string(uid);
}

}  // namespace sbx::test
