// What to boot for a run: the executor's configuration, the guest the build made
// (guest.json), and the preset's VM_SETTINGS (spec `vm_settings`), in rising precedence.
// Runs whose plans are equal share one warm guest.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "config.hpp"

namespace sbx::qemu {

struct GuestPlan {
    std::string qemu_binary;
    std::string kernel;
    std::string initrd;
    std::string accel;
    std::string cpu;
    std::string bios;
    std::string image;  // a disk image for the run's files system, or ""
    std::uint64_t memory_mb = 256;
    std::uint64_t cpus = 1;
    std::uint64_t boot_timeout_ms = 60000;

    // Equal keys: one guest serves both plans.
    [[nodiscard]] std::string key() const;
};

// The plan for a spec. `vm_settings` is the spec's object (or null): memory ("2G", "512M",
// or MiB as a number), cpus, timeout (boot, seconds), kernel, initrd, image, and
// <os_type>_image for the spec's `os_type` (the seed's windows_image/macos_image).
// Throws sbx::Error(SBX_INVALID) for a malformed VM_SETTINGS value, naming it.
GuestPlan plan_guest(const ExecutorConfig &config, const nlohmann::json &vm_settings,
                     const std::string &os_type);

// "" when every file the plan boots from exists, else what is missing and how to get it.
std::string missing_guest_files(const GuestPlan &plan, const ExecutorConfig &config);

}  // namespace sbx::qemu
