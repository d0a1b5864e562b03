// Run spec parsing: everything that can be refused is refused before any container exists.
// The command fields and limits are read by the shared reader; this adds the container ones.
#include "run_spec.hpp"

#include <cctype>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "support/environment_variable.hpp"
#include "support/json_fields.hpp"
#include "support/run_spec.hpp"
#include "support/workspace.hpp"

namespace sbx::docker {
namespace {

using nlohmann::json;

std::string optional_string(const json &spec, const char *key) {
    if (!spec.contains(key) || spec[key].is_null()) {
        return "";
    }
    return support::read_c_string(spec[key], std::string("run spec: ") + key);
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
        if (const char *value = support::environment_variable(name.c_str())) {
            return value;
        }
    }
    if (const char *value = support::environment_variable("SANDBOX_CONTAINER_IMAGE")) {
        return value;
    }
    return config.image;
}

RunSpec parse_run_spec(const std::string &spec_json, const ExecutorConfig &config) {
    const json spec = support::parse_spec_object(spec_json);
    RunSpec result;
    static_cast<support::CommandSpec &>(result) = support::read_command_spec(spec);
    result.image =
        choose_image(optional_string(spec, "image"), optional_string(spec, "os_type"), config);
    result.needs_network =
        (spec.contains("needs_network") && spec["needs_network"].is_boolean() &&
         spec["needs_network"].get<bool>()) ||
        (spec.contains("upstreams") && spec["upstreams"].is_array() && !spec["upstreams"].empty());
    // safe_mode: never the host's network; the spec's netns (the network injector's) is
    // entered by the helper, and without one the container's network is `none`.
    result.needs_network = result.needs_network && !result.safe_mode;
    result.state_dir = optional_string(spec, "state_dir");
    if (result.state_dir.empty()) {
        result.state_dir = !config.state_dir.empty() ? config.state_dir
                                                     : support::private_state_folder() + "/state";
    }
    result.limits = support::read_run_limits(
        spec.contains("limits") ? spec["limits"] : json(),
        support::RunSpecDefaults{config.default_timeout_ms, config.output_bytes});
    return result;
}

}  // namespace sbx::docker
