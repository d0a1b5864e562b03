// Guest plans. Paths in VM_SETTINGS are taken as given (absolute, or relative to the host's
// working directory); the build's guest.json names its kernel absolutely and its initrd
// relative to itself.
#include "guest_plan.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>

#include "support/json_fields.hpp"
#include "support/locked_json_file.hpp"
#include "support/number_parse.hpp"

namespace sbx::qemu {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// "2G", "512M", "1024K" or a plain number of MiB.
std::uint64_t memory_mib(const json &value, const std::string &where) {
    if (value.is_number_unsigned() || value.is_number_integer()) {
        return support::read_count(value, where);
    }
    const std::string text = support::read_string(value, where);
    const std::size_t digits = std::min(text.find_first_not_of("0123456789"), text.size());
    // At most 2^54, so that G (1024 MiB each) cannot overflow.
    const auto amount =
        support::parse_uint64(text.substr(0, digits), support::LeadingPlus::refused);
    if (!amount || (*amount > UINT64_MAX / 1024)) {
        support::invalid(where, "'" + text + "' is not a memory size such as 2G or 512M");
    }
    std::string unit = text.substr(digits);
    if (!unit.empty() && (unit.back() == 'B' || unit.back() == 'b')) {
        unit.pop_back();
    }
    if (!unit.empty() && unit.back() == 'i') {
        unit.pop_back();
    }
    if (unit.empty() || unit == "M" || unit == "m") {
        return *amount;
    }
    if (unit == "G" || unit == "g") {
        return *amount * 1024;
    }
    if (unit == "K" || unit == "k") {
        return *amount / 1024;
    }
    support::invalid(where, "'" + text + "' has an unknown unit; use K, M or G");
}

std::string absolute(const std::string &path) {
    return path.empty() ? path : fs::absolute(path).lexically_normal().string();
}

}  // namespace

std::string GuestPlan::key() const {
    return json{qemu_binary, accel, cpu, kernel, initrd, bios, image, memory_mb, cpus}.dump();
}

GuestPlan plan_guest(const ExecutorConfig &config, const json &vm_settings,
                     const std::string &os_type) {
    GuestPlan plan;
    plan.qemu_binary = config.qemu_binary;
    plan.accel = config.accel;
    plan.cpu = config.cpu;
    plan.bios = config.bios;
    plan.memory_mb = config.memory_mb;
    plan.cpus = config.cpus;
    plan.boot_timeout_ms = config.boot_timeout_ms;
    plan.kernel = config.kernel;
    plan.initrd = config.initrd;
    if ((plan.kernel.empty() || plan.initrd.empty()) && !config.guest_dir.empty()) {
        const json guest = support::read_json_file(config.guest_dir + "/guest.json");
        if (plan.kernel.empty() && guest.value("kernel", json()).is_string()) {
            plan.kernel = guest["kernel"].get<std::string>();
        }
        if (plan.initrd.empty() && guest.value("initrd", json()).is_string()) {
            plan.initrd = (fs::path(config.guest_dir) / guest["initrd"].get<std::string>())
                              .lexically_normal()
                              .string();
        }
        if (plan.initrd.empty()) {
            plan.initrd = config.guest_dir + "/initrd.img";  // named in the error if absent
        }
    }
    if (!vm_settings.is_object()) {
        return plan;
    }
    for (const auto &[key, value] : vm_settings.items()) {
        const std::string where = "VM_SETTINGS." + key;
        if (key == "memory") {
            plan.memory_mb = memory_mib(value, where);
        } else if (key == "cpus") {
            plan.cpus = support::read_count(value, where);
        } else if (key == "timeout") {
            plan.boot_timeout_ms =
                static_cast<std::uint64_t>(support::read_non_negative(value, where) * 1000);
        } else if (key == "kernel") {
            plan.kernel = absolute(support::read_c_string(value, where));
        } else if (key == "initrd") {
            plan.initrd = absolute(support::read_c_string(value, where));
        } else if (key == "image" || (!os_type.empty() && key == os_type + "_image")) {
            plan.image = absolute(support::read_c_string(value, where));
        }
        // Other keys (another OS's image, say) are for other presets: ignored.
    }
    if (plan.memory_mb < 64 || plan.cpus == 0 || plan.boot_timeout_ms == 0) {
        support::invalid("VM_SETTINGS", "memory must be at least 64M; cpus and timeout above 0");
    }
    return plan;
}

std::string missing_guest_files(const GuestPlan &plan, const ExecutorConfig &config) {
    const std::string build_hint =
        "; install linux-image-amd64 and busybox-static and rebuild (the build runs "
        "tools/build-guest-initramfs), or set VM_SETTINGS kernel/initrd";
    if (plan.kernel.empty()) {
        return "no guest kernel: no kernel configured and no guest.json in '" + config.guest_dir +
               "'" + build_hint;
    }
    std::error_code error;
    if (!fs::is_regular_file(plan.kernel, error)) {
        return "guest kernel '" + plan.kernel + "' does not exist" + build_hint;
    }
    if (plan.initrd.empty() || !fs::is_regular_file(plan.initrd, error)) {
        return "guest initrd '" + plan.initrd + "' does not exist" + build_hint;
    }
    if (!plan.image.empty() && !fs::is_regular_file(plan.image, error)) {
        return "disk image '" + plan.image + "' (VM_SETTINGS) does not exist";
    }
    return "";
}

}  // namespace sbx::qemu
