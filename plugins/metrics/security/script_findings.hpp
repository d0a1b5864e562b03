// What a script analyzer finds in a script: Bandit for Python, ShellCheck for shell. Each
// finding weighs by its severity; the score is 1 / (1 + total weight), 1 for a clean script.
#pragma once

#include <string>

namespace sbx::security {

struct ScriptFindings {
    double weight = 0;  // Bandit HIGH 1, MEDIUM 0.5, LOW 0.1; ShellCheck error 1, warning
                        // 0.5, info 0.1, style 0.05
    int findings = 0;
    std::string summary;  // "2 high, 1 low" / "1 warning, 2 info", for logs

    [[nodiscard]] double score() const { return 1.0 / (1.0 + weight); }
};

// `bandit -f json -q FILE` over the Python source `code` (in a temporary file). Throws sbx::Error
// when the tool does not answer with its JSON report.
ScriptFindings bandit_findings(const std::string &bandit, const std::string &code);

// `shellcheck -s <shell> -f json FILE` over the shell source `code` (in a temporary file;
// `shell`: sh, bash, dash or ksh). Throws sbx::Error when the tool does not answer with its JSON
// report.
ScriptFindings shellcheck_findings(const std::string &shellcheck, const std::string &code,
                                   const std::string &shell);

}  // namespace sbx::security
