// The host-less harness: one request, one call, one answer.
#include "plugin_call_command.hpp"

#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "install_layout.hpp"
#include "plugins/answer_contract.hpp"
#include "plugins/call_by_name.hpp"
#include "plugins/plugin.hpp"
#include "util/errors.hpp"

namespace sbx::cli {
namespace {

using nlohmann::json;

constexpr const char *kUsage =
    "; write `plugins call PATH --request FILE [--call NAME] [--plugin-config JSON]` (FILE - reads "
    "stdin; the SDK installs sample requests in share/sandbox-runner-sdk/requests)";

// The ABI reference as this host's user has it: the installed page, or docs/abi.md.
std::string abi_doc() {
    return doc_reference(executable_path("sandbox-runner"), "abi.md");
}

std::string read_text(const std::string &path) {
    if (path == "-") {
        return {std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
    }
    std::ifstream in(path);
    if (!in) {
        throw InputError("plugins call: cannot read the request file " + path);
    }
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// The kind's main call: what a run asks of it.
plugins::PluginCall default_call(const std::string &kind) {
    if (kind == SBX_KIND_EXECUTOR) {
        return plugins::PluginCall::run;
    }
    if (kind == SBX_KIND_INJECTOR) {
        return plugins::PluginCall::prepare;
    }
    if (kind == SBX_KIND_STUB) {
        return plugins::PluginCall::generate;
    }
    if (kind == SBX_KIND_METRICS) {
        return plugins::PluginCall::collect;
    }
    return plugins::PluginCall::predict;
}

}  // namespace

int call_plugin(const std::vector<std::string> &args) {
    if (args.empty() || args[0].rfind("--", 0) == 0) {
        throw InputError(std::string("plugins call: missing the plugin file") + kUsage);
    }
    const std::string &path = args[0];
    std::string request_file;
    std::string call_text;
    json config = json::object();
    for (size_t i = 1; i < args.size(); i += 2) {
        if (i + 1 >= args.size()) {
            throw InputError("plugins call: " + args[i] + " needs a value" + kUsage);
        }
        const std::string &value = args[i + 1];
        if (args[i] == "--request") {
            request_file = value;
        } else if (args[i] == "--call") {
            call_text = value;
        } else if (args[i] == "--plugin-config") {
            config = json::parse(value, nullptr, false);
            if (config.is_discarded() || !config.is_object()) {
                throw InputError(
                    "plugins call: --plugin-config " + value +
                    " is not a JSON object; write e.g. --plugin-config '{\"alpha\": 0.5}'");
            }
        } else {
            throw InputError("plugins call: unknown option " + args[i] + kUsage);
        }
    }
    if (request_file.empty()) {
        throw InputError(std::string("plugins call: missing --request") + kUsage);
    }
    const std::string request = read_text(request_file);
    if (!json::accept(request)) {
        throw InputError("plugins call: the request in " + request_file +
                         " is not JSON; a request is one JSON object (" + abi_doc() + ")");
    }
    // In its own process: a plugin under test that crashes is reported, never fatal here.
    const auto plugin = plugins::describe_plugin(path, plugins::CallPolicy{});
    auto which = default_call(plugin->kind());
    if (!call_text.empty()) {
        const auto named = plugins::call_from_name(call_text);
        if (!named) {
            throw InputError("plugins call: --call " + call_text +
                             " is not a call; write run, prepare, teardown, sweep, generate, "
                             "collect or predict");
        }
        which = *named;
    }
    const auto instance = plugin->create(config);
    std::string answer;
    try {
        answer = instance->call(which, request);
    } catch (const plugins::PluginCallError &e) {
        std::cerr << path << ": " << plugins::call_name(which) << " failed: " << e.what() << '\n';
        return kExitBadInput;
    }
    std::cout << answer << '\n';
    std::cout.flush();
    if (which == plugins::PluginCall::collect || which == plugins::PluginCall::predict) {
        const auto kind = which == plugins::PluginCall::collect ? plugins::AnswerKind::collect
                                                                : plugins::AnswerKind::predict;
        const json parsed = json::parse(answer, nullptr, false);
        const std::string problem =
            parsed.is_discarded() ? "it is not JSON" : plugins::answer_problem(kind, parsed);
        if (!problem.empty()) {
            std::cerr << path << ": the answer to " << plugins::call_name(which)
                      << " breaks its contract (" << problem << "); " << abi_doc() << " gives it\n";
            return kExitBadInput;
        }
    }
    return kExitOk;
}

}  // namespace sbx::cli
