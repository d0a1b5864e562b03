// Parsing of the local executor's configuration. The host has already validated it against
// kConfigSchema; checking again keeps the plugin safe under a host that did not.
#include "config.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/json_fields.hpp"

namespace sbx::local {

ExecutorConfig parse_config(const std::string &config_json) {
    nlohmann::json config;
    try {
        config =
            config_json.empty() ? nlohmann::json::object() : nlohmann::json::parse(config_json);
    } catch (const nlohmann::json::parse_error &e) {
        support::invalid("local executor configuration", std::string("is not JSON: ") + e.what());
    }
    if (config.is_null()) {
        config = nlohmann::json::object();
    }
    if (!config.is_object()) {
        support::invalid("local executor configuration", "must be an object, got " + config.dump());
    }

    ExecutorConfig result;
    for (const auto &[key, value] : config.items()) {
        const std::string where = "local executor configuration: " + key;
        if (key == "workspace_root") {
            result.workspace_root = support::read_c_string(value, where);
        } else if (key == "output_bytes") {
            result.output_bytes = support::read_count(value, where);
        } else if (key == "default_timeout_ms") {
            result.default_timeout_ms = support::read_count(value, where);
        } else if (key == "inherit_env") {
            result.inherit_env = support::read_bool(value, where);
        } else if (key == "cgroups") {
            const std::string mode = support::read_string(value, where);
            if (mode != "auto" && mode != "off") {
                support::invalid(where, "must be \"auto\" or \"off\", got \"" + mode + "\"");
            }
            result.use_cgroups = mode == "auto";
        } else if (key == "disk_limit") {
            const std::string mode = support::read_string(value, where);
            if (mode != "tmpfs" && mode != "file_size") {
                support::invalid(where, "must be \"tmpfs\" or \"file_size\", got \"" + mode + "\"");
            }
            result.disk_as_tmpfs = mode == "tmpfs";
        } else if (key == "sandbox") {
            const std::string mode = support::read_string(value, where);
            if (mode != "warm" && mode != "cold") {
                support::invalid(where, "must be \"warm\" or \"cold\", got \"" + mode + "\"");
            }
            result.warm_sandbox = mode == "warm";
        } else if (key == "filesystem") {
            result.filesystem =
                support::read_filesystem_mode(support::read_string(value, where), where);
        } else {
            support::invalid("local executor configuration",
                             "unknown key '" + key +
                                 "'; known keys: workspace_root, output_bytes, default_timeout_ms, "
                                 "inherit_env, cgroups, disk_limit, sandbox, filesystem");
        }
    }
    // A relative root would move with the host's working directory; pin it now. Empty stays
    // empty: the per-user folder, found (and checked) when a workspace is made.
    if (!result.workspace_root.empty()) {
        result.workspace_root = std::filesystem::absolute(result.workspace_root).string();
    }
    return result;
}

}  // namespace sbx::local
