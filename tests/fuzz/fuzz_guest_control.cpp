// The qemu guest agent's control channel: bytes from the serial port split into lines and
// each line parsed into a command (plugins/executors/qemu/guest/control_line.hpp), exactly
// as the agent does. A `run` command's job id must be a job folder name and nothing else:
// it is joined to the share's jobs/ folder.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "control_line.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    std::string buffer(reinterpret_cast<const char *>(data), size);
    std::string line;
    while (sbx::guest::take_line(buffer, line)) {
        const auto command = sbx::guest::parse_control_line(line);
        if (command.kind == sbx::guest::ControlKind::run &&
            command.job_id.find_first_not_of("0123456789") != std::string::npos) {
            std::abort();  // a job id that could leave the jobs folder
        }
    }
    return 0;
}
