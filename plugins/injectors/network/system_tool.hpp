// Running the system's network tools (ip, tc, iptables) from the plugin: found by name in
// PATH and the sbin folders, run with a text on stdin, output captured for error messages.
#pragma once

#include <string>
#include <vector>

namespace sbx::network {

// Absolute path of `name`, searched in PATH then /usr/sbin, /sbin, /usr/bin, /bin. Throws
// sbx::Error(SBX_UNSUPPORTED) naming the Debian package to install when it is missing.
std::string find_tool(const std::string &name, const std::string &package);

struct ToolResult {
    int exit_code = -1;  // 128 + signal when killed
    std::string output;  // stdout and stderr, interleaved
};

// Runs argv (argv[0] absolute) with `input` on stdin; waits for it.
ToolResult run_tool(const std::vector<std::string> &argv, const std::string &input = "");

// Same, throwing sbx::Error(SBX_ERROR) "<what>: `<command>` exited with N: <output>" when
// the tool fails.
void run_tool_checked(const std::vector<std::string> &argv, const std::string &what,
                      const std::string &input = "");

// The command line as a user would type it, for messages.
std::string command_text(const std::vector<std::string> &argv);

}  // namespace sbx::network
