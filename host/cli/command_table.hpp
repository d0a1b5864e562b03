// Every command of sandbox-runner, once: its names, its line in `--help`, and the function
// that runs it. main() dispatches through this table and prints its usage from it, so a
// command cannot be listed without running or run without being listed.
#pragma once

#include <string>
#include <vector>

#include "cli_context.hpp"

namespace sbx::cli {

struct Command {
    const char *name = nullptr;
    const char *alias = nullptr;  // another name for the same command, or nullptr
    // What follows the name in `--help`: options, then "\n"-separated continuation lines.
    const char *usage = nullptr;
    // What the command does, in sentences: `help NAME`, `NAME --help` and the man page.
    const char *about = nullptr;
    // The words that may follow the name ("list import"), for the shell completions.
    const char *subcommands = nullptr;
    // `name` is the name the user typed (some handlers serve several commands).
    int (*run)(CliContext &context, const std::string &name,
               const std::vector<std::string> &args) = nullptr;
    // False for the commands that must work whatever the settings say (help, completions):
    // they get a context without settings, so a broken settings file cannot hide the help.
    bool needs_settings = true;
};

const std::vector<Command> &commands();

// The command called `name` (or aliased so); nullptr when there is none.
const Command *find_command(const std::string &name);

// The "commands:" part of `--help`.
std::string commands_usage();

// The command's usage lines, indented by `indent` after the first.
std::string usage_lines(const Command &command, const std::string &indent);

}  // namespace sbx::cli
