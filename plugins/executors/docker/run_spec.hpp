// The run spec as the docker executor reads it: the executor ABI's fields plus the
// container ones the host adds (image, os_type, needs_network, limits.gpus, state_dir).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "config.hpp"
#include "support/run_spec.hpp"

namespace sbx::docker {

// The command part (argv, env, stdin, files, workspace, netns) is read by the shared reader
// (support/run_spec.hpp).
struct RunSpec : support::CommandSpec {
    std::string image;  // resolved: never empty
    bool needs_network = false;
    std::string state_dir;      // resolved: never empty
    support::RunLimits limits;  // gpus as a DeviceRequest; disk_write_bps reported only
};
// Parses and validates `spec_json`; throws sbx::Error(SBX_INVALID) naming the field.
RunSpec parse_run_spec(const std::string &spec_json, const ExecutorConfig &config);

// The image for a run: the preset's CONTAINER_IMAGE (spec `image`), else
// SANDBOX_CONTAINER_IMAGE_<OS_TYPE upper-cased> (spec `os_type`), else
// SANDBOX_CONTAINER_IMAGE, else the configured image.
std::string choose_image(const std::string &spec_image, const std::string &os_type,
                         const ExecutorConfig &config);

}  // namespace sbx::docker
