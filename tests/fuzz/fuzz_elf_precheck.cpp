// The plugin file checks that run before any plugin code (host/core/plugins/elf_*): the
// pre-check and the reader of the dynamic linking tables, on arbitrary bytes. A bad file is
// a PluginError naming it; nothing else may escape. The bytes are handed over as a memfd
// (its /proc/self/fd path), so no file is written per input.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "plugins/elf_dynamic.hpp"
#include "plugins/elf_precheck.hpp"
#include "plugins/plugin.hpp"

namespace {

int plugin_file() {
    static const int fd = [] {
        const int made = ::memfd_create("fuzz-plugin.so", MFD_CLOEXEC);
        if (made < 0) {
            std::abort();  // the harness cannot run: no finding to report
        }
        return made;
    }();
    return fd;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const int fd = plugin_file();
    if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) {
        std::abort();
    }
    const std::string path = "/proc/self/fd/" + std::to_string(fd);
    try {
        sbx::plugins::precheck_plugin_file(path);
    } catch (const sbx::plugins::PluginError &) {
    }
    try {
        sbx::plugins::read_dynamic_linking(path);
    } catch (const sbx::plugins::PluginError &) {
    }
    return 0;
}
