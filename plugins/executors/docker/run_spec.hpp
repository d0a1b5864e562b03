// The run spec as the docker executor reads it: the executor ABI's fields plus the
// container ones the host adds (image, os_type, needs_network, limits.gpus, state_dir).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "../local/run_spec.hpp"
#include "config.hpp"

namespace sbx::docker {

// Every limit: 0 means none.
struct RunLimits {
    std::uint64_t timeout_ms = 0;
    std::uint64_t memory_bytes = 0;  // Memory and MemorySwap (equal: no swap beyond it)
    double cpu_cores = 0;            // NanoCpus
    std::uint64_t pids = 0;          // PidsLimit
    std::uint64_t disk_bytes = 0;    // StorageOpt size, where the storage driver allows it
    std::uint64_t gpus = 0;          // a DeviceRequest for that many GPUs
    double cpu_time_s = 0;           // RLIMIT_CPU (Ulimits "cpu")
    std::uint64_t output_bytes = 0;  // never 0 after parsing
};

// The command part (argv, env, stdin, files, workspace, netns) is read as `local` reads it.
struct RunSpec : local::CommandSpec {
    std::string image;  // resolved: never empty
    bool needs_network = false;
    std::string state_dir;  // resolved: never empty
    RunLimits limits;
};
// Parses and validates `spec_json`; throws sbx::Error(SBX_INVALID) naming the field.
RunSpec parse_run_spec(const std::string &spec_json, const ExecutorConfig &config);

// The image for a run: the preset's CONTAINER_IMAGE (spec `image`), else
// SANDBOX_CONTAINER_IMAGE_<OS_TYPE upper-cased> (spec `os_type`), else
// SANDBOX_CONTAINER_IMAGE, else the configured image.
std::string choose_image(const std::string &spec_image, const std::string &os_type,
                         const ExecutorConfig &config);

}  // namespace sbx::docker
