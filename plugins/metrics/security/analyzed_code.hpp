// What code a step's command runs, for the analyzers: the program itself when it is an ELF
// file or a script, or, for an interpreter (python3, sh, bash, ...), the script it is given
// or its -c snippet. The interpreter's own binary is not the workflow's code.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace sbx::security {

struct AnalyzedCode {
    enum class Kind { elf, python, shell };
    Kind kind = Kind::elf;
    std::string shell;    // for Kind::shell: sh, bash, dash or ksh (ShellCheck's dialect)
    std::string label;    // the file's path, or "sh -c snippet", for logs
    std::string content;  // the snippet; empty for a file, read with read_code(label)
    // A file's device, inode, size and modification time: the same identity is the same
    // bytes, so a file seen before need not be read again. Empty for a snippet.
    std::string identity;

    [[nodiscard]] bool is_file() const { return !identity.empty(); }
};

// The code `argv` (a command as the host ran it: a bare program name is looked up in PATH)
// runs; empty when it names nothing readable (a relative script path, whose workspace is gone
// by the time collectors run, or a missing file).
// Only the first bytes of a file are read here, to tell what it is.
std::vector<AnalyzedCode> analyzed_code(const nlohmann::json &argv);

// A regular file's bytes; nullopt for anything else or anything larger than 256 MiB.
std::optional<std::string> read_code(const std::string &path);

}  // namespace sbx::security
