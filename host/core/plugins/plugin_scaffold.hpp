// `plugins new KIND NAME [DIR]`: writes a plugin project that builds against the installed
// SDK alone and loads as generated (CMakeLists.txt, one source on sbx/plugin.hpp with an
// embedded configuration schema, README.md). The CLI parses the words and prints.
#pragma once

#include <filesystem>
#include <string>

namespace sbx::plugins {

// What the project is: its kind and id, where it goes, and the pages its README points to.
struct ScaffoldRequest {
    std::string kind;              // executor, injector, stub, metrics or predictor
    std::string name;              // the plugin id, [a-z0-9_]+
    std::filesystem::path folder;  // must not exist yet
    std::string author_guide;      // where plugin-authors.md is, as the README names it
    std::string abi_doc;           // where abi.md is
};

// Writes the project. Throws InputError for a bad kind or name or a folder that exists
// (nothing is written then), EnvironmentError when the folder cannot be written; a project
// half written is removed.
void write_plugin_scaffold(const ScaffoldRequest &request);

}  // namespace sbx::plugins
