// What a plugin's author does next after a failed call: one step per way of failing, the
// same in a run's warning and in `plugins verify`.
#pragma once

#include <string>

#include "plugins/plugin.hpp"

namespace sbx::plugins {

// "it crashed in predict: repeat it with the replay line; under a debugger, ..." for
// `failure` of `call` by plugin `id`; `replay` is the command line that repeats the call,
// shown beside this ("" when there is none: the advice names `plugins call` instead).
std::string failure_advice(CallFailure failure, PluginCall call, const std::string &id,
                           const std::string &replay);

}  // namespace sbx::plugins
