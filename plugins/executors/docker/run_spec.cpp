// Run spec parsing: everything that can be refused is refused before any container exists.
// The command fields are read by local::read_command_spec; this adds the container ones.
#include "run_spec.hpp"

#include <cctype>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "../local/json_fields.hpp"
#include "../local/run_spec.hpp"
#include "../local/workspace.hpp"

namespace sbx::docker {
namespace {

using local::invalid;
using nlohmann::json;

RunLimits parse_limits(const json &limits, const ExecutorConfig &config) {
    RunLimits result;
    result.timeout_ms = config.default_timeout_ms;
    result.output_bytes = config.output_bytes;
    if (limits.is_null()) {
        return result;
    }
    if (!limits.is_object()) {
        invalid("run spec: limits", "must be an object, got " + limits.dump());
    }
    for (const auto &[key, value] : limits.items()) {
        const std::string where = "run spec: limits." + key;
        if (value.is_null()) {
            continue;
        }
        if (key == "timeout_ms") {
            result.timeout_ms = local::read_count(value, where);
        } else if (key == "memory_bytes") {
            result.memory_bytes = local::read_count(value, where);
        } else if (key == "cpu_cores") {
            result.cpu_cores = local::read_non_negative(value, where);
        } else if (key == "pids") {
            result.pids = local::read_count(value, where);
        } else if (key == "disk_bytes") {
            result.disk_bytes = local::read_count(value, where);
        } else if (key == "gpus") {
            result.gpus = local::read_count(value, where);
        } else if (key == "cpu_time_s") {
            result.cpu_time_s = local::read_non_negative(value, where);
        } else if (key == "output_bytes") {
            const std::uint64_t bytes = local::read_count(value, where);
            result.output_bytes = bytes > 0 ? bytes : config.output_bytes;
        }
        // disk_write_bps and the injectors' limits: reported, not enforced (see README).
    }
    return result;
}

std::string optional_string(const json &spec, const char *key) {
    if (!spec.contains(key) || spec[key].is_null()) {
        return "";
    }
    return local::read_c_string(spec[key], std::string("run spec: ") + key);
}

}  // namespace

std::string choose_image(const std::string &spec_image, const std::string &os_type,
                         const ExecutorConfig &config) {
    if (!spec_image.empty()) {
        return spec_image;
    }
    if (!os_type.empty()) {
        std::string name = "SANDBOX_CONTAINER_IMAGE_";
        for (const char c : os_type) {
            name += std::isalnum(static_cast<unsigned char>(c)) != 0
                        ? static_cast<char>(std::toupper(static_cast<unsigned char>(c)))
                        : '_';
        }
        if (const char *value = std::getenv(name.c_str()); value != nullptr && *value != '\0') {
            return value;
        }
    }
    if (const char *value = std::getenv("SANDBOX_CONTAINER_IMAGE");
        value != nullptr && *value != '\0') {
        return value;
    }
    return config.image;
}

RunSpec parse_run_spec(const std::string &spec_json, const ExecutorConfig &config) {
    const json spec = local::parse_spec_object(spec_json);
    RunSpec result;
    static_cast<local::CommandSpec &>(result) = local::read_command_spec(spec);
    result.image =
        choose_image(optional_string(spec, "image"), optional_string(spec, "os_type"), config);
    result.needs_network =
        (spec.contains("needs_network") && spec["needs_network"].is_boolean() &&
         spec["needs_network"].get<bool>()) ||
        (spec.contains("upstreams") && spec["upstreams"].is_array() && !spec["upstreams"].empty());
    result.state_dir = optional_string(spec, "state_dir");
    if (result.state_dir.empty()) {
        result.state_dir =
            !config.state_dir.empty() ? config.state_dir : local::private_state_folder() + "/state";
    }
    result.limits = parse_limits(spec.contains("limits") ? spec["limits"] : json(), config);
    return result;
}

}  // namespace sbx::docker
