#include "help_text.hpp"

#include <sstream>

#include "global_options.hpp"

namespace sbx::cli {
namespace {

constexpr const char *kUsageHead =
    "usage: sandbox-runner [global options] COMMAND [command options]\n";

// roff: a backslash is \e, a hyphen in an option name \-, and a line may not start with
// a control character ('.' or '\'').
std::string roff(const std::string &text) {
    std::string out;
    bool line_start = true;
    for (const char c : text) {
        if (line_start && (c == '.' || c == '\'')) {
            out += "\\&";
        }
        if (c == '\\') {
            out += "\\e";
        } else if (c == '-') {
            out += "\\-";
        } else {
            out += c;
        }
        line_start = c == '\n';
    }
    return out;
}

// The options of `global_options_for_help()` as "  --name ARG    description" lines.
std::string global_options_text() {
    std::ostringstream text;
    text << global_options_for_help();
    return text.str();
}

}  // namespace

std::string wrap_text(const std::string &text, std::size_t width, const std::string &indent) {
    std::istringstream words(text);
    std::string word;
    std::string out;
    std::string line;
    while (words >> word) {
        if (!line.empty() && indent.size() + line.size() + 1 + word.size() > width) {
            out += indent + line + "\n";
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
    }
    if (!line.empty()) {
        out += indent + line + "\n";
    }
    return out;
}

std::string general_help() {
    return std::string(kUsageHead) + "\n" + commands_usage() + "\nglobal options:\n" +
           global_options_text();
}

std::string command_help(const Command &command) {
    std::string text = "usage: sandbox-runner [global options] ";
    text += command.name;
    text += "\n    " + usage_lines(command, "    ") + "\n";
    text += wrap_text(command.about, 80, "");
    if (command.alias != nullptr) {
        text += std::string("\nalias: ") + command.alias + "\n";
    }
    text += "\nglobal options (before the command):\n" + global_options_text();
    return text;
}

namespace {

// The man page's sections, in their order.

std::string man_head() {
    std::string page =
        ".TH SANDBOX\\-RUNNER 1 \"\" \"sandbox-runner " SBX_VERSION "\" \"User Commands\"\n";
    page +=
        ".SH NAME\nsandbox\\-runner \\- run a program under hostile scenario presets and "
        "score how it holds up\n";
    page +=
        ".SH SYNOPSIS\n.B sandbox\\-runner\n[\\fIglobal options\\fR] \\fICOMMAND\\fR "
        "[\\fIcommand options\\fR]\n";
    page += ".SH DESCRIPTION\n" +
            roff(
                "sandbox-runner runs a target program or a multi-step workflow under a matrix "
                "of scenario presets, each once with the workflow enabled and once as a "
                "disabled counterfactual, scores every run, reports per-scenario deltas and "
                "the worst scenario, keeps history in metrics.db (SQLite) and forecasts "
                "trends. Executors, stub strategies, failure injectors, metrics collectors "
                "and predictors are plugins (shared objects) found in the plugin "
                "directories.") +
            "\n";
    return page;
}

std::string man_options_and_commands() {
    std::string page = ".SH GLOBAL OPTIONS\n";
    for (const auto &option : global_options_for_help().options()) {
        page += ".TP\n.B " + roff(option->format_name() + " " + option->format_parameter()) + "\n" +
                roff(option->description()) + "\n";
    }
    page += ".SH COMMANDS\n";
    for (const auto &command : commands()) {
        page += ".TP\n.B " + roff(command.name) + "\n";
        page += ".nf\n" + roff(usage_lines(command, "")) + ".fi\n";
        page += roff(command.about) + "\n";
        if (command.alias != nullptr) {
            page += ".br\n" + roff(std::string("Alias: ") + command.alias + ".") + "\n";
        }
    }
    return page;
}

std::string man_exit_status() {
    return ".SH EXIT STATUS\n.TP\n0\nsuccess\n.TP\n1\n" +
           roff(
               "a gate the user asked for failed (--fail-on, --fail-under, check-resources "
               "found something, replay differed), or run-scenarios reached no verdict: the "
               "workflow is broken or a scenario is inconclusive") +
           "\n.TP\n2\n" +
           roff(
               "bad input: options, settings, presets, plugin files; the message names "
               "the file, line and column or the option") +
           "\n.TP\n3\n" + roff("an environment or internal error") + "\n";
}

std::string man_environment_and_files() {
    std::string page = ".SH ENVIRONMENT\n";
    for (const auto &[name, meaning] :
         {std::pair{"SANDBOX_SETTINGS_YAML", "settings file used when --config is not given"},
          std::pair{"SANDBOX_DATA_DIR", "data directory (metrics.db, exports)"},
          std::pair{"SANDBOX_PLUGIN_DIRS", "extra plugin directories, colon-separated"},
          std::pair{"SANDBOX_LOG_LEVEL", "log level"},
          std::pair{"SANDBOX_WORKERS", "runs in parallel"},
          std::pair{"NO_COLOR", "when set and not empty, no colours on the terminal"}}) {
        page += ".TP\n.B " + roff(name) + "\n" + roff(meaning) + "\n";
    }
    page += ".SH FILES\n.TP\n.I sandbox_data/metrics.db\n" +
            roff("the history of sessions, runs, scores and forecasts") + "\n";
    page += ".SH SEE ALSO\n" +
            roff(
                "The user guide, the CLI and settings references and the plugin author "
                "guide in /usr/share/doc/sandbox-runner or the docs/ folder of the sources.") +
            "\n";
    return page;
}

}  // namespace

std::string man_page() {
    return man_head() + man_options_and_commands() + man_exit_status() +
           man_environment_and_files();
}

}  // namespace sbx::cli
