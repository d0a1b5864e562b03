// One call of a plugin's kind interface with a small sample request, its answer checked
// against the shape the host relies on: the last step of `plugins verify`.
#pragma once

#include <string>

#include "plugins/plugin.hpp"

namespace sbx::plugins {

struct SmokeResult {
    bool ok = false;
    // ok: "predict {...} -> {...}"; not ok: "<what went wrong>; <what to change>".
    std::string line;
};

// Creates an instance with the configuration {} (what a plugin gets when the settings
// have no section for it) and makes the kind's calls with the SDK's sample requests
// (share/sandbox-runner-sdk/requests): an executor runs the sample spec once; an injector
// prepares (and tears down) for a preset that asks for nothing, then sweeps dry; a stub
// strategy, a metrics collector (both phases) and a predictor answer the sample and then
// fuzzed requests (plugins/fuzzed_requests.hpp). With an isolated plugin a crash is a
// failed call like any other, named with the call and the request.
SmokeResult smoke_call(const Plugin &plugin);

}  // namespace sbx::plugins
