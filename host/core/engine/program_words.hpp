// The program's own words: the identifier-like strings a workflow's programs hold (an ELF's
// read-only data, a script's quoted literals), which is what AFL's autodictionary and
// `strings` give a fuzzer. The hostile stub tries them as values and keys of json slots: a
// value only the program knows ("drone", a hidden "debug" key) is otherwise out of reach.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "config/settings.hpp"

namespace sbx::engine {

// The words of one file, in the order the file holds them, each once: a word is 2 to 32
// characters of letters, digits, '_', '-' and '.', with a letter. An ELF file gives the
// NUL-terminated strings of its read-only data; any other file under 16 MiB its quoted
// literals ('...', "...", `...`). A file that cannot be read gives none.
std::vector<std::string> file_words(const std::string &path);

// The words of a workflow's programs, first step first, each once, at most `limit`. A step whose
// arguments name a script (an existing file after the program) gives the script's words, not its
// interpreter's; otherwise the program's. Templates are skipped. Read once per file and version
// (path, size, mtime) per process. The limit is generous: a program linked with a sanitizer's
// runtime holds its own literals after the runtime's 2,000-odd, and the strategy ranks the words by
// where the example's own keys and values sit among them, so a long list costs little.
std::vector<std::string> program_words(const config::Workflow &workflow, std::size_t limit = 8192);

}  // namespace sbx::engine
