// Text quoted for a POSIX shell, for the command lines the host prints for someone to paste
// (replay lines, a plugin's reproduction under a debugger).
#pragma once

#include <string>

namespace sbx {

// `text` as one single-quoted shell word, always.
std::string shell_quote(const std::string &text);

// `text` as is when it holds only the plainest path characters, else shell_quote(text):
// printed lines stay readable and still paste right on a path with spaces.
std::string shell_word(const std::string &text);

}  // namespace sbx
