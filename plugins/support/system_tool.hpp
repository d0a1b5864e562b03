// Running system tools from a plugin (ip, tc and iptables for `network`; bandit and
// shellcheck for `security`): found by name in PATH and the sbin folders, run with a text on
// stdin, output captured.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace sbx::support {

class NetworkEntry;

// Absolute path of the executable regular file `name`, searched in PATH then /usr/sbin,
// /sbin, /usr/bin, /bin; nullopt when there is none.
std::optional<std::string> find_executable(const std::string &name);

// Absolute path of `name`, searched in PATH then /usr/sbin, /sbin, /usr/bin, /bin. Throws
// sbx::Error(SBX_UNSUPPORTED) naming the Debian package to install when it is missing.
std::string find_tool(const std::string &name, const std::string &package);

struct ToolResult {
    int exit_code = -1;  // 128 + signal when killed
    std::string output;  // stdout and stderr, interleaved (stdout alone: Output::stdout_only)
};

enum class Output { merged, stdout_only };

// Runs argv (argv[0] absolute) with `input` on stdin; waits for it. With stdout_only, the
// tool's stderr goes to /dev/null and `output` is its stdout as written (a report to parse).
// A `timeout` above zero kills the tool (SIGKILL) when it has not ended by then; the result
// is then 128 + 9 with " (killed after N ms)" appended to its output. With `inside`, the
// tool runs in that network namespace (network_entry.hpp), also without root.
ToolResult run_tool(const std::vector<std::string> &argv, const std::string &input = "",
                    Output output = Output::merged,
                    std::chrono::milliseconds timeout = std::chrono::milliseconds(0),
                    const NetworkEntry *inside = nullptr);

// Same, throwing sbx::Error(SBX_ERROR) "<what>: `<command>` exited with N: <output>" when
// the tool fails.
void run_tool_checked(const std::vector<std::string> &argv, const std::string &what,
                      const std::string &input = "", const NetworkEntry *inside = nullptr);

// The command line as a user would type it, for messages.
std::string command_text(const std::vector<std::string> &argv);

}  // namespace sbx::support
