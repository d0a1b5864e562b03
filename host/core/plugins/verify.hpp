// `plugins verify PATH`: a pre-flight for plugin authors. Everything the loader checks,
// plus what would only fail later or elsewhere: the exports, the symbols and symbol
// versions the plugin needs of this machine, its configuration schema, and a smoke call.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "plugins/isolation_policy.hpp"
#include "plugins/registry.hpp"

namespace sbx::plugins {

struct VerifyCheck {
    std::string name;    // "exports", "symbol versions", ...
    std::string detail;  // what was found
};

struct VerifyReport {
    std::string summary;              // "ok: ID VERSION (KIND, ABI M.m)" once loaded
    std::vector<VerifyCheck> passed;  // the checklist, in order
    // One line each: "<path>: <what is wrong>; <what to change>". Empty: the plugin is fine.
    std::vector<std::string> problems;
    // Worth knowing, not wrong: "id 'x' is also provided by <path>: ...".
    std::vector<std::string> notes;
};

// Never throws for a bad plugin file: every refusal is a problem line. Link problems
// (a library, a symbol version or a symbol missing here) stop before the plugin is
// loaded, so none of its code runs; later checks need it loaded.
// `policy`: the settings' plugin_host (deadlines, memory limit) for the smoke call.
// `registry` (optional): the plugin directories, to say when another file there already
// provides the plugin's id.
VerifyReport verify_plugin(const std::filesystem::path &path, const IsolationPolicy &policy = {},
                           const Registry *registry = nullptr);

}  // namespace sbx::plugins
