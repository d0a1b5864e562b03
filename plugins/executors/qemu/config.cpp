// Configuration parsing. The host validated the object against kConfigSchema already;
// checking again keeps the plugin safe under a host that did not.
#include "config.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/environment_variable.hpp"
#include "support/json_fields.hpp"
#include "support/number_parse.hpp"

namespace sbx::qemu {
namespace {

using support::invalid;
namespace fs = std::filesystem;

std::string absolute_or_empty(const std::string &path) {
    return path.empty() ? path : fs::absolute(path).lexically_normal().string();
}

}  // namespace

std::uint64_t parse_duration_s(const std::string &text, const std::string &where) {
    const char *shape = "' is not a duration such as 7d, 12h, 30m, 45s or 3600";
    const std::size_t digits = std::min(text.find_first_not_of("0123456789"), text.size());
    const auto amount =
        support::parse_uint64(text.substr(0, digits), support::LeadingPlus::refused);
    if (!amount) {
        invalid(where, "'" + text + shape);
    }
    const std::string unit = text.substr(digits);
    std::uint64_t scale = 0;
    if (unit.empty() || unit == "s") {
        scale = 1;
    } else if (unit == "m") {
        scale = 60;
    } else if (unit == "h") {
        scale = 3600;
    } else if (unit == "d") {
        scale = 86400;
    } else {
        invalid(where, "'" + text + "' has an unknown unit '" + unit + "'; use s, m, h or d");
    }
    std::uint64_t seconds = 0;
    if (__builtin_mul_overflow(*amount, scale, &seconds)) {
        invalid(where, "'" + text + shape);
    }
    return seconds;
}

std::string plugin_folder() {
    Dl_info info{};
    if (::dladdr(reinterpret_cast<const void *>(&plugin_folder), &info) == 0 ||
        info.dli_fname == nullptr) {
        return "";
    }
    return fs::absolute(info.dli_fname).parent_path().string();
}

ExecutorConfig parse_config(const std::string &config_json) {
    nlohmann::json parsed = nlohmann::json::object();
    if (!config_json.empty()) {
        parsed = nlohmann::json::parse(config_json, nullptr, false);
    }
    if (parsed.is_null()) {
        parsed = nlohmann::json::object();
    }
    if (!parsed.is_object()) {
        invalid("qemu executor configuration", "must be a JSON object, got " + config_json);
    }
    ExecutorConfig config;
    for (const auto &[key, value] : parsed.items()) {
        const std::string where = "qemu executor configuration: " + key;
        if (key == "qemu_binary") {
            config.qemu_binary = support::read_c_string(value, where);
        } else if (key == "guest_dir") {
            config.guest_dir = support::read_c_string(value, where);
        } else if (key == "kernel") {
            config.kernel = support::read_c_string(value, where);
        } else if (key == "initrd") {
            config.initrd = support::read_c_string(value, where);
        } else if (key == "accel") {
            config.accel = support::read_c_string(value, where);
        } else if (key == "cpu") {
            config.cpu = support::read_c_string(value, where);
        } else if (key == "bios") {
            config.bios = support::read_c_string(value, where);
        } else if (key == "memory_mb") {
            config.memory_mb = support::read_count(value, where);
        } else if (key == "cpus") {
            config.cpus = support::read_count(value, where);
        } else if (key == "boot_timeout_ms") {
            config.boot_timeout_ms = support::read_count(value, where);
        } else if (key == "boot_attempts") {
            config.boot_attempts = support::read_count(value, where);
        } else if (key == "backoff_ms") {
            config.backoff_ms = support::read_count(value, where);
        } else if (key == "default_timeout_ms") {
            config.default_timeout_ms = support::read_count(value, where);
        } else if (key == "answer_slack_ms") {
            config.answer_slack_ms = support::read_count(value, where);
        } else if (key == "output_bytes") {
            config.output_bytes = support::read_count(value, where);
        } else if (key == "workspace_root") {
            config.workspace_root = support::read_c_string(value, where);
        } else if (key == "overlay_root") {
            config.overlay_root = support::read_c_string(value, where);
        } else if (key == "overlay_max_age_s") {
            config.overlay_max_age_s = support::read_count(value, where);
        } else if (key == "max_overlay_count") {
            config.max_overlay_count = support::read_count(value, where);
        } else {
            invalid("qemu executor configuration",
                    "unknown key '" + key + "'; the keys are listed in docs/configuration.md");
        }
    }
    if (config.memory_mb < 64 || config.cpus == 0 || config.boot_attempts == 0 ||
        config.boot_timeout_ms == 0) {
        invalid("qemu executor configuration",
                "memory_mb must be >= 64; cpus, boot_attempts and boot_timeout_ms >= 1");
    }
    if (const char *age = support::environment_variable("SANDBOX_OVERLAY_MAX_AGE")) {
        config.overlay_max_age_s =
            parse_duration_s(age, "environment variable SANDBOX_OVERLAY_MAX_AGE");
    }
    if (const char *count = support::environment_variable("SANDBOX_MAX_OVERLAY_COUNT")) {
        const auto overlays = support::parse_uint64(count);
        if (!overlays) {
            invalid("environment variable SANDBOX_MAX_OVERLAY_COUNT",
                    std::string("'") + count + "' is not a whole number (0: unlimited)");
        }
        config.max_overlay_count = *overlays;
    }
    if (const char *file = support::environment_variable("SANDBOX_ACTIVE_OVERLAYS")) {
        config.active_overlays_file = absolute_or_empty(file);
    }
    if (const char *file = support::environment_variable("SANDBOX_FAILED_OVERLAYS")) {
        config.failed_overlays_file = absolute_or_empty(file);
    }
    if (config.guest_dir.empty()) {
        const std::string folder = plugin_folder();
        config.guest_dir = folder.empty() ? "" : folder + "/qemu-guest";
    }
    config.guest_dir = absolute_or_empty(config.guest_dir);
    config.kernel = absolute_or_empty(config.kernel);
    config.initrd = absolute_or_empty(config.initrd);
    config.overlay_root = absolute_or_empty(config.overlay_root);
    // Empty stays empty: the per-user folder, found (and checked) when a workspace is made.
    config.workspace_root = absolute_or_empty(config.workspace_root);
    return config;
}

}  // namespace sbx::qemu
