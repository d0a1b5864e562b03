// qemu-img does the work (it is in qemu-utils); we only pick the backing format, which
// qemu-img insists on being told since 6.1. It runs through the plugins' one way to run a
// system tool (support/system_tool.hpp).
#include "disk_overlay.hpp"

#include <chrono>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "support/system_tool.hpp"

namespace sbx::qemu {
namespace {

// qemu-img writes a few hundred bytes of metadata: a minute is a wedged disk, not a slow one.
constexpr auto kOverlayTimeout = std::chrono::seconds(60);

std::string backing_format(const std::string &image) {
    std::ifstream in(image, std::ios::binary);
    char magic[4] = {};
    in.read(magic, sizeof magic);
    return in && std::memcmp(magic, "QFI\xfb", 4) == 0 ? "qcow2" : "raw";
}

}  // namespace

void create_disk_overlay(const std::string &image, const std::string &overlay) {
    const std::string qemu_img = support::find_tool("qemu-img", "qemu-utils");
    const auto result = support::run_tool({qemu_img, "create", "-q", "-f", "qcow2", "-F",
                                           backing_format(image), "-b", image, overlay},
                                          "", support::Output::merged, kOverlayTimeout);
    if (result.exit_code != 0) {
        throw std::runtime_error("qemu-img could not make an overlay over '" + image +
                                 "': " + result.output);
    }
}

}  // namespace sbx::qemu
