#include "script_findings.hpp"

#include <sbx/plugin.hpp>

#include <unistd.h>

#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>

#include "support/environment_variable.hpp"
#include "support/system_tool.hpp"

namespace sbx::security {
namespace {

using nlohmann::json;

// `code` in a file of its own for as long as the analyzer reads it: Bandit seeks in what it
// reads, which a pipe on its stdin does not allow.
class CodeFile {
  public:
    explicit CodeFile(const std::string &code) {
        const char *tmp = support::environment_variable("TMPDIR");
        path_ = std::string(tmp != nullptr && *tmp == '/' ? tmp : "/tmp") + "/sbx-code-XXXXXX";
        const int fd = ::mkstemp(path_.data());
        if (fd < 0) {
            throw Error(SBX_ERROR, "cannot make a file for the code to analyze in " + path_);
        }
        const bool written =
            ::write(fd, code.data(), code.size()) == static_cast<ssize_t>(code.size());
        ::close(fd);
        if (!written) {
            ::unlink(path_.c_str());
            throw Error(SBX_ERROR, "cannot write the code to analyze to " + path_);
        }
    }
    ~CodeFile() { ::unlink(path_.c_str()); }
    CodeFile(const CodeFile &) = delete;
    CodeFile &operator=(const CodeFile &) = delete;
    [[nodiscard]] const std::string &path() const { return path_; }

  private:
    std::string path_;
};

// The tool's JSON report on `code` (its file's path is the last argument); both tools exit 1
// when they find something, which is no failure.
json report_of(std::vector<std::string> argv, const std::string &code) {
    const CodeFile file(code);
    argv.push_back(file.path());
    // A hung analyzer must not hold a worker: a slow Bandit scan takes seconds, not minutes.
    const auto result = support::run_tool(argv, "", support::Output::stdout_only,
                                          std::chrono::milliseconds(120000));
    if (result.exit_code == 0 || result.exit_code == 1) {
        json report = json::parse(result.output, nullptr, false);
        if (!report.is_discarded()) {
            return report;
        }
    }
    throw Error(SBX_ERROR, "`" + support::command_text(argv) + "` exited with " +
                               std::to_string(result.exit_code) +
                               " and no JSON report: " + result.output.substr(0, 200));
}

// Weighs `level` of each finding by `weights`, counting levels for the summary.
ScriptFindings weigh(const json &findings, const char *level_key,
                     const std::map<std::string, double> &weights) {
    ScriptFindings weighed;
    std::map<std::string, int> by_level;
    for (const auto &finding : findings) {
        std::string level = finding.value(level_key, "");
        for (auto &c : level) {
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        const auto weight = weights.find(level);
        weighed.weight += weight == weights.end() ? 0.0 : weight->second;
        ++weighed.findings;
        ++by_level[level];
    }
    for (const auto &[level, count] : by_level) {
        weighed.summary += (weighed.summary.empty() ? "" : ", ") + std::to_string(count) + " " +
                           (level.empty() ? "unrated" : level);
    }
    if (weighed.summary.empty()) {
        weighed.summary = "no findings";
    }
    return weighed;
}

}  // namespace

ScriptFindings bandit_findings(const std::string &bandit, const std::string &code) {
    const json report = report_of({bandit, "-f", "json", "-q"}, code);
    return weigh(report.value("results", json::array()), "issue_severity",
                 {{"high", 1.0}, {"medium", 0.5}, {"low", 0.1}});
}

ScriptFindings shellcheck_findings(const std::string &shellcheck, const std::string &code,
                                   const std::string &shell) {
    const json report = report_of({shellcheck, "-s", shell, "-f", "json"}, code);
    return weigh(report.is_array() ? report : json::array(), "level",
                 {{"error", 1.0}, {"warning", 0.5}, {"info", 0.1}, {"style", 0.05}});
}

}  // namespace sbx::security
