#include "global_options.hpp"

#include <sbx/plugin.h>

namespace po = boost::program_options;

namespace sbx::cli {

extern const char *const kBuildCommit;  // build_info.cpp, rewritten when HEAD moves

po::options_description global_options(GlobalOptions &bind) {
    po::options_description global("");
    global.add_options()("help,h", "show this help; `help COMMAND` for one command")(
        "version", "print the version, the plugin ABI and the build")(
        "config", po::value(&bind.config_path), "settings file (default: the embedded one)")(
        "data-dir", po::value(&bind.data_dir), "directory for metrics.db and exports")(
        "plugin-dir", po::value(&bind.plugin_dirs)->composing(),
        "extra plugin directory (repeatable)")("log-level", po::value(&bind.log_level),
                                               "trace, debug, info, warn, error, critical, off")(
        "json-logs", po::bool_switch(&bind.json_logs), "one JSON object per log line")(
        "quiet,q", po::bool_switch(&bind.quiet), "warnings and errors only, and no progress line")(
        "strict-plugins", po::bool_switch(&bind.strict_plugins),
        "exit 3 when a metrics collector or predictor was disabled after a failed call");
    return global;
}

const po::options_description &global_options_for_help() {
    static GlobalOptions unused;
    static const po::options_description description = global_options(unused);
    return description;
}

std::string version_text() {
    std::string text = "sandbox-runner " SBX_VERSION "\n";
    text += "plugin ABI " + std::to_string(SBX_ABI_MAJOR) + "." + std::to_string(SBX_ABI_MINOR) +
            " (" SBX_EXECUTOR_V1 ", " SBX_INJECTOR_V1 ", " SBX_STUB_V1 ", " SBX_METRICS_V1
            ", " SBX_PREDICTOR_V1 ")\n";
    text += "build: " SBX_BUILD_TYPE ", " SBX_COMPILER ", commit ";
    text += kBuildCommit;
    text += "\n";
    return text;
}

}  // namespace sbx::cli
