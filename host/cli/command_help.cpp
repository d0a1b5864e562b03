// `help [COMMAND] [--man]` and `print-completions bash|zsh`: texts generated from the command
// table, printed without reading any settings.
#include <iostream>

#include "cli_context.hpp"
#include "command_table.hpp"
#include "completions.hpp"
#include "help_text.hpp"
#include "util/errors.hpp"

namespace sbx::cli {

int run_help_command(CliContext & /*context*/, const std::string & /*command*/,
                     const std::vector<std::string> &args) {
    if (args.size() == 1 && args[0] == "--man") {
        std::cout << man_page();
        return kExitOk;
    }
    if (args.empty()) {
        std::cout << general_help();
        return kExitOk;
    }
    for (const auto &arg : args) {
        if (arg.rfind('-', 0) == 0) {
            throw InputError("help: unknown option '" + arg +
                             "'; use `sandbox-runner help [COMMAND] [--man]`");
        }
    }
    const Command *found = args.size() == 1 ? find_command(args[0]) : nullptr;
    if (found == nullptr) {
        throw InputError("help: " +
                         (args.size() == 1 ? "unknown command '" + args[0] + "'"
                                           : std::string("give one command name")) +
                         "; run `sandbox-runner --help` for the list");
    }
    std::cout << command_help(*found);
    return kExitOk;
}

int run_completions_command(CliContext & /*context*/, const std::string & /*command*/,
                            const std::vector<std::string> &args) {
    if (args.size() == 1 && args[0] == "bash") {
        std::cout << bash_completion();
        return kExitOk;
    }
    if (args.size() == 1 && args[0] == "zsh") {
        std::cout << zsh_completion();
        return kExitOk;
    }
    throw InputError(
        "print-completions: give the shell, bash or zsh, e.g. `source <(sandbox-runner "
        "print-completions bash)`");
}

}  // namespace sbx::cli
