// The two kinds of failure the host distinguishes, and the exit codes they map to.
// Bad input (config, presets, plugin files, CLI) is the user's to fix: exit 2.
#pragma once

#include <stdexcept>
#include <string>

namespace sbx {

// Exit codes of the sandbox-runner binary.
enum ExitCode : int {
    kExitOk = 0,
    kExitGateFailed = 1,  // the runs found a failure the user asked to gate on
    kExitBadInput = 2,    // bad usage or bad input: config, presets, plugin files, CLI
    kExitEnvironment = 3  // an internal or environment error
};

// Input the user must fix. The message names the file:line:column or the option and
// says what to write instead.
class InputError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// The machine or the host itself failed (no permission, missing tool, I/O error).
class EnvironmentError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

}  // namespace sbx
