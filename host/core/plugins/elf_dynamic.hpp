// What a plugin file asks of the dynamic loader, read from its ELF tables without running
// it: the symbols it exports, the libraries it needs, the symbols it leaves undefined and
// the symbol versions (GLIBC_2.34, GLIBCXX_3.4.30, ...) it requires of each library.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace sbx::plugins {

struct UndefinedSymbol {
    std::string name;
    bool weak = false;    // a weak reference may stay unresolved
    std::string version;  // "GLIBC_2.34", or "" when unversioned
    std::string library;  // the soname the version belongs to, or ""
};

struct VersionNeed {
    std::string library;                // a soname, e.g. "libc.so.6"
    std::vector<std::string> versions;  // e.g. {"GLIBC_2.2.5", "GLIBC_2.34"}
};

struct DynamicLinking {
    std::vector<std::string> exports;  // defined global or weak symbols of .dynsym
    std::vector<std::string> needed;   // DT_NEEDED sonames, in order
    std::vector<UndefinedSymbol> undefined;
    std::vector<VersionNeed> version_needs;  // .gnu.version_r
};

// Reads .dynsym, .dynamic, .gnu.version and .gnu.version_r. Throws PluginError naming the
// file when a table is damaged (an offset outside the file, a cycle in a version chain).
DynamicLinking read_dynamic_linking(const std::filesystem::path &path);

// The version names a shared library defines (.gnu.version_d), without its own soname
// entry: what a plugin linked against it may require. Throws PluginError when unreadable.
std::vector<std::string> read_version_definitions(const std::filesystem::path &path);

}  // namespace sbx::plugins
