// The kind-specific part of a `plugins new` scaffold: the members of the plugin class, each
// answering the smallest valid response of its kind.
#pragma once

#include <string>

namespace sbx::plugins {

struct ScaffoldKind {
    const char *kind;     // as given on the command line: executor, injector, ...
    const char *base;     // the sbx:: base class
    const char *folder;   // sbx_add_plugin's KIND: executors, injectors, ...
    const char *members;  // the class body after the constructor
    const char *request;  // the SDK's sample request of its main call
};

// nullptr for an unknown kind.
const ScaffoldKind *scaffold_kind(const std::string &kind);

// "executor, injector, stub, metrics or predictor".
std::string scaffold_kind_list();

}  // namespace sbx::plugins
