// Runs a real program from a test and captures its exit code, stdout and stderr.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace sbx::test {

struct CommandResult {
    int exit_code = -1;  // 128+N when killed by signal N
    std::string out;
    std::string err;
};

// Runs argv (argv[0] is a path) with extra environment variables, waits for it.
CommandResult run_command(const std::vector<std::string> &argv,
                          const std::map<std::string, std::string> &env = {},
                          const std::string &working_dir = "");

// Starts argv in the background with stdout/stderr sent to `log_path`; returns its pid.
// The test waits for it; one still running when the test ends is ended then.
int spawn_background(const std::vector<std::string> &argv,
                     const std::map<std::string, std::string> &env, const std::string &working_dir,
                     const std::string &log_path);

// Ends (SIGTERM, then SIGKILL after 5 s) and reaps every program spawn_background started
// that is still running: a fixture's TearDown calls it before it removes the test's folder.
void end_background_programs();

// A fresh directory under the test's temp dir, removed by the caller's fixture.
std::string make_temp_dir(const std::string &prefix);

}  // namespace sbx::test
