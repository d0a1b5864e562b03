// Checks a plugin file before any of its code can run: a native ELF shared object that
// defines the ABI entry symbol in its dynamic symbol table.
#pragma once

#include <filesystem>

namespace sbx::plugins {

// Throws PluginError ("not an ELF file", "no entry symbol 'sbx_entry'", ...) naming the
// file. Reads the file only; never maps or executes it.
void precheck_plugin_file(const std::filesystem::path &path);

}  // namespace sbx::plugins
