#include "job_request.hpp"

#include <unistd.h>

#include <cerrno>

#include "support/number_parse.hpp"

namespace sbx::guest {
namespace {

std::vector<std::string> split_nul(const std::string &text) {
    std::vector<std::string> items;
    size_t start = 0;
    while (start < text.size()) {
        const size_t end = text.find('\0', start);
        items.push_back(text.substr(start, end - start));
        if (end == std::string::npos) {
            break;
        }
        start = end + 1;
    }
    return items;
}

std::map<std::string, std::string> read_pairs(const std::string &text) {
    std::map<std::string, std::string> pairs;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) {
            end = text.size();
        }
        const std::string line = text.substr(start, end - start);
        if (const size_t space = line.find(' '); space != std::string::npos) {
            pairs[line.substr(0, space)] = line.substr(space + 1);
        }
        start = end + 1;
    }
    return pairs;
}

// "<name> <bytes>\n" at `at`: the name and the size, `at` moved past the line. False when the
// line is not there or the size is not a number.
bool take_header(const std::string &text, size_t &at, std::string &name, size_t &bytes) {
    const size_t end = text.find('\n', at);
    const size_t space = text.find(' ', at);
    if (end == std::string::npos || space == std::string::npos || space > end || space + 1 == end) {
        return false;
    }
    const std::string number = text.substr(space + 1, end - space - 1);
    const auto size = support::parse_uint64(number, support::LeadingPlus::refused);
    if (!size || number.size() > 19) {
        return false;
    }
    name = text.substr(at, space - at);
    bytes = static_cast<size_t>(*size);
    at = end + 1;
    return true;
}

// The declared size of what follows the first line, or nullopt while that line is incomplete
// or malformed.
std::optional<size_t> declared_size(const std::string &text, size_t &body_at) {
    std::string name;
    size_t bytes = 0;
    body_at = 0;
    if (!take_header(text, body_at, name, bytes) || name != "request") {
        return std::nullopt;
    }
    return bytes;
}

}  // namespace

std::uint64_t JobRequest::limit(const char *key) const {
    const auto found = limits.find(key);
    return found == limits.end() ? 0 : support::parse_uint64(found->second).value_or(0);
}

double JobRequest::decimal_limit(const char *key) const {
    const auto found = limits.find(key);
    return found == limits.end() ? 0 : support::parse_double(found->second).value_or(0);
}

std::optional<JobRequest> parse_job_request(const std::string &text) {
    size_t at = 0;
    const auto size = declared_size(text, at);
    if (!size || text.size() - at != *size) {
        return std::nullopt;
    }
    JobRequest request;
    bool has_argv = false;
    while (at < text.size()) {
        std::string name;
        size_t bytes = 0;
        if (!take_header(text, at, name, bytes) || bytes > text.size() - at) {
            return std::nullopt;
        }
        std::string content = text.substr(at, bytes);
        at += bytes;
        if (name == "argv") {
            request.argv = split_nul(content);
            has_argv = true;
        } else if (name == "env") {
            request.env = split_nul(content);
        } else if (name == "limits") {
            request.limits = read_pairs(content);
        } else if (name == "stdin") {
            request.stdin_text = std::move(content);
        }
    }
    if (!has_argv || request.argv.empty()) {
        return std::nullopt;
    }
    return request;
}

std::optional<JobRequest> read_job_request(int file) {
    // Reads until the declared size is in: no read just to meet the end of the file.
    std::string text;
    // Small: a 9p read this size or more pins the buffer's pages for QEMU to fill.
    char chunk[16384];
    std::optional<size_t> wanted;
    size_t body_at = 0;
    while (!wanted || text.size() < body_at + *wanted) {
        const ssize_t got = ::pread(file, chunk, sizeof chunk, static_cast<off_t>(text.size()));
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            return std::nullopt;
        }
        text.append(chunk, static_cast<size_t>(got));
        if (!wanted) {
            wanted = declared_size(text, body_at);
            if (!wanted && text.find('\n') != std::string::npos) {
                return std::nullopt;
            }
        }
    }
    auto request = parse_job_request(text.substr(0, body_at + *wanted));
    if (request) {
        request->bytes = body_at + *wanted;
    }
    return request;
}

}  // namespace sbx::guest
