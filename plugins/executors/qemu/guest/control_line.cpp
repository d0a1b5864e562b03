#include "control_line.hpp"

namespace sbx::guest {

bool take_line(std::string &buffer, std::string &line) {
    const size_t end = buffer.find('\n');
    if (end == std::string::npos) {
        return false;
    }
    line = buffer.substr(0, end);
    buffer.erase(0, end + 1);
    if (!line.empty() && line.back() == '\r') {
        line.pop_back();
    }
    return true;
}

ControlCommand parse_control_line(const std::string &line) {
    ControlCommand command;
    if (line == "quit") {
        command.kind = ControlKind::quit;
        return command;
    }
    if (line.rfind("run ", 0) != 0) {
        command.problem = "unknown command: " + line;
        return command;
    }
    const std::string id = line.substr(4);
    // 20 digits hold every uint64_t, the host's job counter.
    if (id.empty() || id.size() > 20 || id.find_first_not_of("0123456789") != std::string::npos) {
        command.problem = "job id is not a number: " + line;
        return command;
    }
    command.kind = ControlKind::run;
    command.job_id = id;
    return command;
}

}  // namespace sbx::guest
