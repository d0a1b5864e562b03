// The one line at the bottom of a terminal that a long command keeps rewriting (progress),
// shared with the log: a log line first erases it, is written, and the line comes back
// below it, so neither garbles the other. Only on a terminal: with stderr a pipe or a file
// nothing here ever writes the status line.
#pragma once

#include <string>
#include <string_view>

namespace sbx::logging {

// Colours on stderr: a terminal, TERM not "dumb", and NO_COLOR unset or empty
// (https://no-color.org).
bool stderr_colors();

// True when stderr is a terminal.
bool stderr_is_terminal();

// Replaces the status line (nothing is written when stderr is not a terminal). `text`
// is cut to the terminal's width: a wrapped line could not be erased.
void show_status(const std::string &text);

// Erases the status line for good (the command is ending).
void clear_status();

// Writes a finished log line above the status line.
void write_above_status(std::string_view line);

// Prints `text` on stdout above the status line (the same terminal, most often): the line
// is erased first and drawn again after, under the lock every redraw takes.
void print_above_status(std::string_view text);

}  // namespace sbx::logging
