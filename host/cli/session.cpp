// What the recording commands say about a session: disabled plugins, --recover's options.
#include "session.hpp"

#include <cstdio>
#include <map>

#include "util/errors.hpp"

namespace sbx::cli {

namespace {

// "a crash", "running out of memory": a failure_name() as the reminder's sentence says it.
std::string failure_words(const std::string &failure) {
    static const std::map<std::string, std::string> words = {{"crash", "a crash"},
                                                             {"hang", "a hang"},
                                                             {"garbage", "garbage on its channel"},
                                                             {"memory", "running out of memory"},
                                                             {"bad_answer", "a broken answer"},
                                                             {"status", "an error status"}};
    const auto found = words.find(failure);
    return found != words.end() ? found->second : failure;
}

}  // namespace

int finish_with_disabled_plugins(const std::vector<store::PluginFailure> &disabled, bool strict,
                                 int code) {
    // The warning at the failure said it all; after the results, a reminder that the
    // numbers above lack this plugin's.
    for (const auto &entry : disabled) {
        std::fprintf(stderr,
                     "warning: plugin %s was disabled after %s in %s (%s): its %s are "
                     "absent from there on; the warning above says how to replay it\n",
                     entry.id.c_str(), failure_words(entry.failure).c_str(), entry.call.c_str(),
                     entry.context.c_str(), entry.kind == "predictor" ? "forecasts" : "metrics");
    }
    if (!strict || disabled.empty()) {
        return code;
    }
    std::string ids;
    for (const auto &entry : disabled) {
        ids += (ids.empty() ? "" : ", ") + entry.id;
    }
    std::fprintf(stderr,
                 "sandbox-runner: %zu plugin%s disabled after a failed call (%s); exit 3 as "
                 "--strict-plugins (plugin_host.strict) asks\n",
                 disabled.size(), disabled.size() == 1 ? " was" : "s were", ids.c_str());
    return kExitEnvironment;
}

void refuse_with_recover(const std::string &command,
                         const boost::program_options::variables_map &given,
                         std::initializer_list<const char *> fixed) {
    for (const char *option : fixed) {
        if (given.count(option) != 0 && !given[option].defaulted()) {
            throw InputError(command + ": --recover takes --" + option +
                             " from the interrupted session; leave it out");
        }
    }
}

}  // namespace sbx::cli
