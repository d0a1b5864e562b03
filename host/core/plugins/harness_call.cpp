// The host-less harness: one request, one call, one answer.
#include "plugins/harness_call.hpp"

#include <sbx/plugin.h>

#include "plugins/answer_contract.hpp"
#include "plugins/call_by_name.hpp"
#include "plugins/plugin.hpp"
#include "util/errors.hpp"

namespace sbx::plugins {
namespace {

using nlohmann::json;

// The kind's main call: what a run asks of it.
PluginCall default_call(const std::string &kind) {
    if (kind == SBX_KIND_EXECUTOR) {
        return PluginCall::run;
    }
    if (kind == SBX_KIND_INJECTOR) {
        return PluginCall::prepare;
    }
    if (kind == SBX_KIND_STUB) {
        return PluginCall::generate;
    }
    if (kind == SBX_KIND_METRICS) {
        return PluginCall::collect;
    }
    return PluginCall::predict;
}

// Why a collect or predict answer breaks its contract; empty when it keeps it.
std::string contract_problem(PluginCall which, const std::string &answer) {
    if (which != PluginCall::collect && which != PluginCall::predict) {
        return {};
    }
    const auto kind = which == PluginCall::collect ? AnswerKind::collect : AnswerKind::predict;
    const json parsed = json::parse(answer, nullptr, false);
    return parsed.is_discarded() ? "it is not JSON" : answer_problem(kind, parsed);
}

}  // namespace

HarnessAnswer call_plugin_once(const HarnessCall &call) {
    const auto plugin = describe_plugin(call.path, CallPolicy{});
    HarnessAnswer result;
    result.which = default_call(plugin->kind());
    if (!call.call.empty()) {
        const auto named = call_from_name(call.call);
        if (!named) {
            throw InputError("plugins call: --call " + call.call +
                             " is not a call; write run, prepare, teardown, sweep, generate, "
                             "collect or predict");
        }
        result.which = *named;
    }
    const auto instance = plugin->create(call.config);
    try {
        result.answer = instance->call(result.which, call.request);
    } catch (const PluginCallError &e) {
        result.failure = e.what();
        return result;
    }
    result.contract_problem = contract_problem(result.which, result.answer);
    return result;
}

}  // namespace sbx::plugins
