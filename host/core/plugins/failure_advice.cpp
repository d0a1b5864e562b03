#include "plugins/failure_advice.hpp"

namespace sbx::plugins {

std::string failure_advice(CallFailure failure, PluginCall call, const std::string &id,
                           const std::string &replay) {
    const std::string name = call_name(call);
    const std::string again =
        replay.empty() ? std::string("repeat the call with `sandbox-runner plugins call`")
                       : std::string("repeat it with the replay line");
    switch (failure) {
        case CallFailure::crash:
            return "it crashed in " + name + ": " + again +
                   "; under a debugger, prefix it with `gdb --args`, or use valgrind or a "
                   "-fsanitize=address build of the plugin (docs: Debugging your plugin)";
        case CallFailure::hang:
            return name + " did not return within its deadline: " + again +
                   " under `gdb --args` and interrupt it to see where it waits; raise "
                   "plugin_host.overrides." +
                   id + ".call_deadline_s only if " + name + " is slow by design";
        case CallFailure::garbage:
            return "it wrote onto fd 3, the plugin host's channel to sandbox-runner: print to "
                   "stderr or log through the host's log (sbx::log, or sbx_host.log in C), and "
                   "never "
                   "close or write fd 3";
        case CallFailure::memory:
            return "it ran out of its memory limit: " + again +
                   " under `valgrind --leak-check=full` to find the leak, or raise "
                   "plugin_host.overrides." +
                   id + ".memory_mb if it needs more";
        case CallFailure::bad_answer:
            return "its answer to " + name +
                   " breaks the call's contract (docs/abi.md, Answer contracts; the JSON Schemas "
                   "are installed in share/sandbox-runner-sdk/schemas): " +
                   again + " and compare";
        case CallFailure::status:
            break;
    }
    return "it answered " + name + " with an error status and the message above: " + again +
           "; a request it cannot serve is still an answer (an empty metrics object, a forecast "
           "with insufficient_data)";
}

}  // namespace sbx::plugins
