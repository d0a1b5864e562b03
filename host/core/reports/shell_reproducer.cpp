// Shell lines for a run's steps.
#include "reports/shell_reproducer.hpp"

#include <cstdio>

namespace sbx::reports {

using nlohmann::json;

std::string shell_quote(const std::string &text) {
    std::string quoted = "'";
    for (const char c : text) {
        if (c == '\'') {
            quoted += "'\\''";
        } else {
            quoted += c;
        }
    }
    return quoted + "'";
}

std::string printf_bytes(const std::string &text) {
    // printf's format carries any byte as \ooo; printable ASCII stays readable.
    std::string format;
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '%') {
            format += "%%";
        } else if (c == '\\') {
            format += "\\\\";
        } else if (c == '\'') {
            format += "'\\''";
        } else if (byte >= 0x20 && byte < 0x7f) {
            format += c;
        } else {
            char octal[8];
            std::snprintf(octal, sizeof octal, "\\%03o", byte);
            format += octal;
        }
    }
    return "printf '" + format + "'";
}

std::string shell_reproducer(const std::vector<std::string> &header,
                             const std::vector<std::string> &step_names,
                             const std::vector<json> &specs) {
    std::string out;
    for (const auto &line : header) {
        out += "# " + line + "\n";
    }
    // A scratch folder of its own, removed when the script ends however it ends.
    out +=
        "sbx_workspace=$(mktemp -d) && cd \"$sbx_workspace\" || exit\n"
        "trap 'cd / && rm -rf \"$sbx_workspace\"' EXIT\n";
    for (size_t i = 0; i < specs.size(); ++i) {
        const json &spec = specs[i];
        out += "# step " + std::to_string(i + 1) + ": " +
               (i < step_names.size() ? step_names[i] : std::string()) + "\n";
        // Named copies, not temporaries: a range-for over value(...).items() keeps a
        // reference into a temporary alive only by accident.
        const json files = spec.value("files", json::object());
        const json env = spec.value("env", json::object());
        const json argv = spec.value("argv", json::array());
        for (const auto &[path, content] : files.items()) {
            if (const auto slash = path.rfind('/'); slash != std::string::npos) {
                out += "mkdir -p " + shell_quote(path.substr(0, slash)) + "\n";
            }
            out += printf_bytes(content.is_string() ? content.get<std::string>() : content.dump()) +
                   " > " + shell_quote(path) + "\n";
        }
        std::string line;
        const std::string stdin_text = spec.value("stdin", std::string());
        line += stdin_text.empty() ? "" : printf_bytes(stdin_text) + " | ";
        line += "env";
        for (const auto &[name, value] : env.items()) {
            line +=
                " " + shell_quote(name + "=" +
                                  (value.is_string() ? value.get<std::string>() : value.dump()));
        }
        for (const auto &word : argv) {
            line += " " + shell_quote(word.is_string() ? word.get<std::string>() : word.dump());
        }
        out += line + (stdin_text.empty() ? " < /dev/null" : "") + "\n";
    }
    return out;
}

}  // namespace sbx::reports
