// What the recording commands say about a session: disabled plugins, --recover's options.
#include "session.hpp"

#include <cstdio>

#include "util/errors.hpp"

namespace sbx::cli {

int finish_with_disabled_plugins(const std::vector<store::PluginFailure> &disabled, bool strict,
                                 int code) {
    for (const auto &entry : disabled) {
        std::fprintf(stderr, "%s\n", engine::disabled_plugin_reminder(entry).c_str());
    }
    if (!strict || disabled.empty()) {
        return code;
    }
    std::fprintf(stderr, "%s\n", engine::strict_plugins_refusal(disabled).c_str());
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
