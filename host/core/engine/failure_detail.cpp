// One line of why a step failed.
#include "engine/failure_detail.hpp"

#include <cstdio>
#include <vector>

namespace sbx::engine {

namespace {

constexpr size_t kMaxLineChars = 200;

// The line with control characters made visible and its length bounded: a hostile target's
// stderr must not steer a terminal or break a report's line structure.
std::string shown_line(const std::string &line) {
    std::string out;
    for (const char c : line) {
        if (out.size() >= kMaxLineChars) {
            out += "...";
            break;
        }
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7f) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
            out += escaped;
        } else {
            out += c;
        }
    }
    return out;
}

const char *signal_name(int signal) {
    switch (signal) {
        case 6:
            return "SIGABRT";
        case 9:
            return "SIGKILL";
        case 11:
            return "SIGSEGV";
        case 15:
            return "SIGTERM";
        case 8:
            return "SIGFPE";
        case 7:
            return "SIGBUS";
        case 4:
            return "SIGILL";
        default:
            return nullptr;
    }
}

// How the target ended, from the result's status.
std::string ending(const nlohmann::json &result) {
    const std::string status = result.value("status", std::string("XX"));
    if (status == "SG") {
        const int signal = result.value("signal", 0);
        const char *name = signal_name(signal);
        return "killed by signal " + std::to_string(signal) +
               (name != nullptr ? std::string(" (") + name + ")" : std::string());
    }
    if (status == "TO") {
        char text[64];
        std::snprintf(text, sizeof text, "timed out after %.1f s", result.value("wall_s", 0.0));
        return text;
    }
    if (status == "OOM") {
        return "killed for exceeding its memory limit";
    }
    if (status == "XX") {
        const std::string error = result.value("error", std::string());
        return "not run: " + (error.empty() ? std::string("the executor gave no error") : error);
    }
    return "exit code " + std::to_string(result.value("exit_code", -1));
}

}  // namespace

std::string stderr_tail(const std::string &text, int lines) {
    std::vector<std::string> found;
    size_t end = text.size();
    while (end > 0 && static_cast<int>(found.size()) < lines) {
        const size_t start = text.rfind('\n', end - 1);
        const size_t from = start == std::string::npos ? 0 : start + 1;
        std::string line = text.substr(from, end - from);
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        if (line.find_first_not_of(" \t") != std::string::npos) {
            found.push_back(shown_line(line));
        }
        if (start == std::string::npos) {
            break;
        }
        end = start;
    }
    std::string joined;
    for (auto line = found.rbegin(); line != found.rend(); ++line) {
        joined += (joined.empty() ? "" : " | ") + *line;
    }
    return joined;
}

std::string failure_detail(const std::string &step, const nlohmann::json &result,
                           const std::string &reason, int stderr_lines) {
    std::string detail = "step '" + step + "': " + ending(result);
    // "status RE, expected OK" and "exit code 3, expected 0" say what `ending` said.
    if (!reason.empty() && reason.rfind("status ", 0) != 0 && reason.rfind("exit code ", 0) != 0) {
        detail += " (" + reason + ")";
    }
    const auto stderr_text = result.find("stderr");
    if (stderr_text != result.end() && stderr_text->is_string()) {
        if (const auto tail = stderr_tail(stderr_text->get<std::string>(), stderr_lines);
            !tail.empty()) {
            detail += "; stderr: " + tail;
        }
    }
    return detail;
}

}  // namespace sbx::engine
