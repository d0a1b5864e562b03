// A workflow's `services:` entry: a program the host starts before the workflow's steps
// (per run or per cell) and stops after them, which the steps reach as an upstream.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace sbx::config {

struct Service {
    std::string name;  // letters, digits and '_': it names SANDBOX_UPSTREAM_<NAME>
    // The command; "{{port}}" in it, in `env` values and in a probe command stands for the
    // port the host chose for this start (also in SANDBOX_SERVICE_PORT).
    std::vector<std::string> run;
    // A container image the service runs from, through the Engine API on the host's network;
    // `run` is then the container's command (the image's own when empty). "" for a program
    // of the host.
    std::string image;
    std::map<std::string, std::string> env;
    std::map<std::string, std::string> files;  // written into the service's own folder, its cwd
    enum class Probe { tcp, http, command };
    Probe probe = Probe::tcp;                // ready when 127.0.0.1:port accepts
    std::string http_path = "/";             // Probe::http: a GET answered below 500
    std::vector<std::string> probe_command;  // Probe::command: exit 0
    int64_t ready_timeout_ms = 10000;        // from start to ready, else the run fails
};

// When a workflow's services start and stop.
enum class ServiceScope {
    run,  // around each run (the default): no state leaks from one run into the next
    cell  // once per cell, shared by its runs (cheaper for slow starters)
};

}  // namespace sbx::config
