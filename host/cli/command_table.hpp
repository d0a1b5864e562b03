// Every command of sandbox-runner, once: its names, its line in `--help`, and the function
// that runs it. main() dispatches through this table and prints its usage from it, so a
// command cannot be listed without running or run without being listed.
#pragma once

#include <string>
#include <vector>

#include "cli_context.hpp"

namespace sbx::cli {

struct Command {
    const char *name;
    const char *alias;  // another name for the same command, or nullptr
    // What follows the name in `--help`: options, then "\n"-separated continuation lines.
    const char *usage;
    // `name` is the name the user typed (some handlers serve several commands).
    int (*run)(CliContext &context, const std::string &name, const std::vector<std::string> &args);
};

const std::vector<Command> &commands();

// The command called `name` (or aliased so); nullptr when there is none.
const Command *find_command(const std::string &name);

// The "commands:" part of `--help`.
std::string commands_usage();

}  // namespace sbx::cli
