// `plugins call`: its options read, the request read, the answer printed.
#include "plugin_call_command.hpp"

#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>

#include "install_layout.hpp"
#include "plugins/harness_call.hpp"
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

struct CallOptions {
    plugins::HarnessCall call;
    std::string request_file;
};

CallOptions parse(const std::vector<std::string> &args) {
    if (args.empty() || args[0].rfind("--", 0) == 0) {
        throw InputError(std::string("plugins call: missing the plugin file") + kUsage);
    }
    CallOptions options;
    options.call.path = args[0];
    for (size_t i = 1; i < args.size(); i += 2) {
        if (i + 1 >= args.size()) {
            throw InputError("plugins call: " + args[i] + " needs a value" + kUsage);
        }
        const std::string &value = args[i + 1];
        if (args[i] == "--request") {
            options.request_file = value;
        } else if (args[i] == "--call") {
            options.call.call = value;
        } else if (args[i] == "--plugin-config") {
            options.call.config = json::parse(value, nullptr, false);
            if (options.call.config.is_discarded() || !options.call.config.is_object()) {
                throw InputError(
                    "plugins call: --plugin-config " + value +
                    " is not a JSON object; write e.g. --plugin-config '{\"alpha\": 0.5}'");
            }
        } else {
            throw InputError("plugins call: unknown option " + args[i] + kUsage);
        }
    }
    if (options.request_file.empty()) {
        throw InputError(std::string("plugins call: missing --request") + kUsage);
    }
    return options;
}

}  // namespace

int call_plugin(const std::vector<std::string> &args) {
    CallOptions options = parse(args);
    options.call.request = read_text(options.request_file);
    if (!json::accept(options.call.request)) {
        throw InputError("plugins call: the request in " + options.request_file +
                         " is not JSON; a request is one JSON object (" + abi_doc() + ")");
    }
    const auto result = plugins::call_plugin_once(options.call);
    const std::string &path = options.call.path;
    if (!result.failure.empty()) {
        std::cerr << path << ": " << plugins::call_name(result.which)
                  << " failed: " << result.failure << '\n';
        return kExitBadInput;
    }
    std::cout << result.answer << '\n';
    std::cout.flush();
    if (!result.contract_problem.empty()) {
        std::cerr << path << ": the answer to " << plugins::call_name(result.which)
                  << " breaks its contract (" << result.contract_problem << "); " << abi_doc()
                  << " gives it\n";
        return kExitBadInput;
    }
    return kExitOk;
}

}  // namespace sbx::cli
