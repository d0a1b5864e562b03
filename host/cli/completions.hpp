// Shell completion scripts, generated from the command table and the global options, so a
// new command or option completes without anyone editing a script.
#pragma once

#include <string>

namespace sbx::cli {

// For `complete -F`: source it, or install it as
// share/bash-completion/completions/sandbox-runner.
std::string bash_completion();

// A #compdef file: install it as share/zsh/vendor-completions/_sandbox-runner.
std::string zsh_completion();

}  // namespace sbx::cli
