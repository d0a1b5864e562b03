// The hardening of an ELF program, as checksec reports it: PIE, RELRO, a non-executable
// stack (NX), the stack protector's canary and FORTIFY_SOURCE, read from the file itself.
#pragma once

#include <optional>
#include <string>

namespace sbx::security {

struct ElfHardening {
    bool pie = false;               // ET_DYN with a program interpreter, or DF_1_PIE
    double relro = 0;               // 1 full (PT_GNU_RELRO and BIND_NOW), 0.5 partial, 0 none
    bool nx = false;                // PT_GNU_STACK without PF_X
    bool canary = false;            // references __stack_chk_fail or __stack_chk_guard
    bool fortify = false;           // references a fortified libc function (__*_chk)
    bool stripped_symbols = false;  // no symbol table to look in: canary and fortify unknown

    // The mean of the five checks, in [0, 1].
    [[nodiscard]] double score() const;
    // "PIE, full RELRO, NX, canary, no FORTIFY", for logs.
    [[nodiscard]] std::string summary() const;
};

// The hardening of the 64-bit little-endian ELF `bytes`, or nullopt when they are not one
// (a script, a 32-bit program, a truncated file).
std::optional<ElfHardening> elf_hardening(const std::string &bytes);

}  // namespace sbx::security
