// Configuration parsing; environment variables win over the file, as SANDBOX_* do for the
// host's own settings.
#include "config.hpp"

#include <sbx/plugin.hpp>

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "support/environment_variable.hpp"
#include "support/json_fields.hpp"
#include "support/number_parse.hpp"

namespace sbx::docker {
namespace {

using support::invalid;

double seconds_variable(const char *name, double fallback) {
    const char *value = support::environment_variable(name);
    if (value == nullptr) {
        return fallback;
    }
    const auto parsed = support::parse_double(value);
    if (!parsed || *parsed < 0) {
        invalid(std::string("environment variable ") + name,
                std::string("'") + value + "' is not a number of seconds such as 300");
    }
    return *parsed;
}

std::uint64_t count_variable(const char *name, std::uint64_t fallback) {
    const char *value = support::environment_variable(name);
    if (value == nullptr) {
        return fallback;
    }
    const auto parsed = support::parse_uint64(value);
    if (!parsed || *parsed == 0) {
        invalid(std::string("environment variable ") + name,
                std::string("'") + value + "' is not a positive whole number");
    }
    return *parsed;
}

}  // namespace

ExecutorConfig parse_config(const std::string &config_json) {
    ExecutorConfig config;
    nlohmann::json parsed = nlohmann::json::object();
    if (!config_json.empty()) {
        try {
            parsed = nlohmann::json::parse(config_json);
        } catch (const nlohmann::json::parse_error &e) {
            invalid("docker executor configuration", std::string("is not JSON: ") + e.what());
        }
    }
    if (parsed.is_null()) {
        parsed = nlohmann::json::object();
    }
    if (!parsed.is_object()) {
        invalid("docker executor configuration", "must be an object");
    }
    for (const auto &[key, value] : parsed.items()) {
        const std::string where = "docker executor configuration: " + key;
        if (key == "image") {
            config.image = support::read_c_string(value, where);
        } else if (key == "user") {
            config.user = support::read_c_string(value, where);
        } else if (key == "workspace_root") {
            config.workspace_root = support::read_c_string(value, where);
        } else if (key == "output_bytes") {
            config.output_bytes = std::max<std::uint64_t>(1, support::read_count(value, where));
        } else if (key == "default_timeout_ms") {
            config.default_timeout_ms = support::read_count(value, where);
        } else if (key == "call_timeout_ms") {
            config.call_timeout_ms =
                std::max<std::uint64_t>(100, support::read_count(value, where));
        } else if (key == "start_timeout_ms") {
            config.start_timeout_ms =
                std::max<std::uint64_t>(1000, support::read_count(value, where));
        } else if (key == "parallel_starts") {
            config.parallel_starts = support::read_count(value, where);
        } else if (key == "network_mode") {
            config.network_mode = support::read_c_string(value, where);
        } else if (key == "pool") {
            config.pool = support::read_bool(value, where);
        } else if (key == "pool_transport") {
            const std::string transport = support::read_c_string(value, where);
            if (transport != "agent" && transport != "exec") {
                invalid(where, "'" + transport + "' is not a transport; write agent or exec");
            }
            config.pool_agent = transport == "agent";
        } else if (key == "keepalive_argv") {
            if (!value.is_array() || value.empty()) {
                invalid(where, "must be a non-empty array of strings");
            }
            config.keepalive_argv.clear();
            for (const auto &word : value) {
                config.keepalive_argv.push_back(support::read_c_string(word, where));
            }
        } else if (key == "start_attempts") {
            config.start_attempts = static_cast<int>(
                std::clamp<std::uint64_t>(support::read_count(value, where), 1, 10));
        } else if (key == "backoff_ms") {
            config.backoff_ms = support::read_count(value, where);
        } else if (key == "idle_timeout_s") {
            config.idle_timeout_s = support::read_non_negative(value, where);
        } else if (key == "max_lifetime_s") {
            config.max_lifetime_s = support::read_non_negative(value, where);
        } else if (key == "max_containers") {
            config.max_containers = std::max<std::uint64_t>(1, support::read_count(value, where));
        } else if (key == "pool_label") {
            config.pool_label = support::read_c_string(value, where);
        } else if (key == "fail_threshold") {
            config.fail_threshold = std::max<std::uint64_t>(1, support::read_count(value, where));
        } else if (key == "state_dir") {
            config.state_dir = support::read_c_string(value, where);
        } else if (key == "cleanup_interval_s") {
            config.cleanup_interval_s = support::read_non_negative(value, where);
        } else if (key == "purge_at_start") {
            config.purge_at_start = support::read_bool(value, where);
        } else if (key == "writable_root") {
            config.writable_root = support::read_bool(value, where);
        } else {
            invalid(where, "is not a setting of the docker executor");
        }
    }
    if (const char *user = support::environment_variable("SANDBOX_CONTAINER_USER")) {
        config.user = user;
    }
    if (const char *label = support::environment_variable("SANDBOX_POOL_LABEL")) {
        config.pool_label = label;
    }
    if (config.pool_label.empty()) {
        invalid("docker executor configuration: pool_label", "must not be empty");
    }
    config.idle_timeout_s =
        seconds_variable("SANDBOX_CONTAINER_IDLE_TIMEOUT", config.idle_timeout_s);
    config.max_lifetime_s =
        seconds_variable("SANDBOX_CONTAINER_MAX_LIFETIME", config.max_lifetime_s);
    config.cleanup_interval_s =
        seconds_variable("SANDBOX_POOL_CLEANUP_INTERVAL", config.cleanup_interval_s);
    config.max_containers = count_variable("SANDBOX_MAX_CONTAINER_COUNT", config.max_containers);
    config.fail_threshold = count_variable("SANDBOX_POOL_FAIL_THRESHOLD", config.fail_threshold);
    return config;
}

}  // namespace sbx::docker
