// Crash signatures from a recorded run's failing step.
#include "engine/crash_signature.hpp"

#include <cctype>
#include <vector>

#include "engine/failure_detail.hpp"
#include "util/hex_digest.hpp"

namespace sbx::engine {
namespace {

std::vector<std::string> lines_of(const std::string &text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        end = end == std::string::npos ? text.size() : end;
        std::string line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        if (line.find_first_not_of(" \t") != std::string::npos) {
            lines.push_back(line);
        }
        start = end + 1;
    }
    return lines;
}

bool starts_with(const std::string &text, const std::string &prefix) {
    return text.compare(0, prefix.size(), prefix) == 0;
}

// Hex addresses become 0x#, runs of five or more digits #: what differs between two runs
// of one crash (where memory was, a pid, how many bytes) and not between two crashes.
std::string normalized(const std::string &line) {
    std::string out;
    for (std::size_t i = 0; i < line.size();) {
        if (line[i] == '0' && i + 1 < line.size() && (line[i + 1] == 'x' || line[i + 1] == 'X')) {
            std::size_t end = i + 2;
            while (end < line.size() && std::isxdigit(static_cast<unsigned char>(line[end])) != 0) {
                ++end;
            }
            out += "0x#";
            i = end;
            continue;
        }
        if (std::isdigit(static_cast<unsigned char>(line[i])) != 0) {
            std::size_t end = i;
            while (end < line.size() && std::isdigit(static_cast<unsigned char>(line[end])) != 0) {
                ++end;
            }
            out += end - i >= 5 ? std::string("#") : line.substr(i, end - i);
            i = end;
            continue;
        }
        out += line[i++];
    }
    return out;
}

// Text in quotes becomes '…': a message that quotes the input ("unknown method 'xyz'") is
// one error whatever the input was.
std::string unquoted(const std::string &line) {
    std::string out;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        const std::size_t end =
            c == '\'' || c == '"' || c == '`' ? line.find(c, i + 1) : std::string::npos;
        if (end == std::string::npos) {
            out += c;
            continue;
        }
        out.append(1, c).append("…").append(1, c);
        i = end;
    }
    return out;
}

}  // namespace

std::string error_words(const std::string &stderr_text) {
    const auto lines = lines_of(stderr_text);
    for (const std::string &line : lines) {
        if (starts_with(line, "SUMMARY: ")) {
            return normalized(
                line);  // "SUMMARY: AddressSanitizer: heap-buffer-overflow a.c:12 in f"
        }
    }
    if (!lines.empty() && starts_with(lines.front(), "Traceback (most recent call last):")) {
        std::string innermost;
        for (const std::string &line : lines) {
            if (starts_with(line, "  File ")) {
                innermost = line;
            }
        }
        const std::string &last = lines.back();
        return normalized(innermost + " | " + last.substr(0, last.find(':')));
    }
    std::string words;
    for (std::size_t i = 0; i < lines.size() && i < 2; ++i) {
        words += (i == 0 ? "" : " | ") + normalized(unquoted(lines[i]));
    }
    return words;
}

std::optional<CrashSignature> crash_signature(const store::RecordedRun &run) {
    if (run.passed ||
        (run.outcome != "crashed" && run.outcome != "hung" && run.outcome != "failed")) {
        return std::nullopt;
    }
    for (const store::RecordedStep &step : run.steps) {
        if (step.name != run.failed_step) {
            continue;
        }
        const std::string words = error_words(step.stderr);
        const std::string ending = step.status == "SG"   ? "signal " + std::to_string(step.signal)
                                   : step.status == "RE" ? "exit " + std::to_string(step.exit_code)
                                                         : step.status;
        std::string key_text = step.name;
        key_text.append(1, '\n').append(ending).append(1, '\n').append(words);
        std::string summary = "step '" + step.name + "': ";
        summary += ending;
        if (!words.empty()) {
            summary.append("; ").append(stderr_tail(words, 1));
        }
        return CrashSignature{util::fnv1a_hex(key_text), summary};
    }
    return std::nullopt;
}

}  // namespace sbx::engine
