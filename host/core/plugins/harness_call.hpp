// `plugins call`, the host-less harness: one plugin file, one request, one call, one
// answer, checked against the answer contract of its kind. The CLI reads the request and
// prints what comes back.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "plugins/plugin_call.hpp"

namespace sbx::plugins {

struct HarnessCall {
    std::string path;                                  // the plugin file
    std::string request;                               // one JSON object, as text
    std::string call;                                  // a call's name; empty: the kind's main call
    nlohmann::json config = nlohmann::json::object();  // the plugin's configuration
};

struct HarnessAnswer {
    PluginCall which = PluginCall::run;  // the call made
    std::string failure;                 // why the call failed; empty when it answered
    std::string answer;                  // the plugin's answer, as it sent it
    std::string contract_problem;        // how a collect or predict answer breaks its contract
};

// Makes the call in the plugin's own process: a plugin under test that crashes is a
// failure reported, never fatal here. Throws InputError for a `call` that names no call.
HarnessAnswer call_plugin_once(const HarnessCall &call);

}  // namespace sbx::plugins
