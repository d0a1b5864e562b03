// Would the dynamic loader accept this plugin in this process? The plugin's needed
// libraries, symbol versions and undefined symbols, checked against what this host has
// loaded (and what this machine can load) before any plugin code runs.
#pragma once

#include <string>
#include <vector>

#include "plugins/elf_dynamic.hpp"

namespace sbx::plugins {

struct LinkReport {
    // One line each, "<what is wrong>; <what to change>", without the file's path.
    std::vector<std::string> problems;
    // For the checklist: what was checked, e.g. "41 symbols, all found (libc.so.6, ...)".
    std::string undefined_summary;
    std::string versions_summary;
};

// Needed libraries that this process has not loaded yet are opened (RTLD_LOCAL), exactly
// as loading the plugin would; their code is trusted system code, the plugin's never runs.
LinkReport check_links(const DynamicLinking &linking);

// Orders version names of one family numerically: GLIBC_2.9 < GLIBC_2.34.
bool version_less(const std::string &a, const std::string &b);

}  // namespace sbx::plugins
