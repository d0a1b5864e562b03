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
// have no section for it) and makes the kind's calls: an executor runs /bin/true, an
// injector prepares (and tears down) for a preset that asks for nothing, then sweeps
// dry; a stub strategy generates 2 input sets; a metrics collector answers both phases;
// a predictor forecasts a short series.
SmokeResult smoke_call(const Plugin &plugin);

}  // namespace sbx::plugins
