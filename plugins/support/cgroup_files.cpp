// The formats are the kernel's (Documentation/admin-guide/cgroup-v2.rst, "Interface Files"):
// the parsers accept exactly those and give nullopt for anything else, so a caller tells
// "the kernel counted 0" from "this kernel has no such counter".
#include "cgroup_files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include <sbx/unique_fd.hpp>

#include "number_parse.hpp"

namespace sbx::support {
namespace {

constexpr std::string_view kBlanks = " \t\n";

std::string_view trimmed(std::string_view text) {
    const std::size_t first = text.find_first_not_of(kBlanks);
    if (first == std::string_view::npos) {
        return {};
    }
    return text.substr(first, text.find_last_not_of(kBlanks) - first + 1);
}

// `text` as one whole decimal number, nothing else (the kernel writes no sign).
std::optional<std::uint64_t> whole_number(std::string_view text) {
    return parse_uint64(text, LeadingPlus::refused);
}

// Calls `each(word)` for every space-separated word of `line`.
template <class Each>
void for_each_word(std::string_view line, Each &&each) {
    std::size_t at = 0;
    while ((at = line.find_first_not_of(kBlanks, at)) != std::string_view::npos) {
        const std::size_t end = std::min(line.find_first_of(kBlanks, at), line.size());
        each(line.substr(at, end - at));
        at = end;
    }
}

}  // namespace

std::optional<std::string> read_kernel_file(const std::string &path) {
    const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd.valid()) {
        return std::nullopt;
    }
    std::string text;
    char buffer[4096];
    for (;;) {
        const ssize_t got = ::read(fd.get(), buffer, sizeof buffer);
        if (got == 0) {
            return text;
        }
        if (got > 0) {
            text.append(buffer, static_cast<std::size_t>(got));
        } else if (errno != EINTR) {
            return std::nullopt;
        }
    }
}

std::optional<std::uint64_t> flat_keyed_value(std::string_view text, std::string_view key) {
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        const std::string_view line = text.substr(at, end - at);
        at = end + 1;
        if (line.size() > key.size() && line.substr(0, key.size()) == key &&
            line[key.size()] == ' ') {
            return whole_number(trimmed(line.substr(key.size() + 1)));
        }
    }
    return std::nullopt;
}

std::optional<std::uint64_t> single_value(std::string_view text) {
    return whole_number(trimmed(text));
}

bool has_word(std::string_view text, std::string_view word) {
    bool found = false;
    for_each_word(text, [&](std::string_view each) { found = found || each == word; });
    return found;
}

std::optional<BlockIoBytes> block_io_bytes(std::string_view text) {
    BlockIoBytes bytes;
    bool any_device = false;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        const std::string_view line = text.substr(at, end - at);
        at = end + 1;
        std::string_view previous;  // the word before, for v1's "Read N" and "Write N"
        bool device = false;        // the line starts with MAJ:MIN, not v1's "Total N"
        bool first = true;
        for_each_word(line, [&](std::string_view word) {
            if (first) {
                first = false;
                device = word.find(':') != std::string_view::npos;
                any_device = any_device || device;
            } else if (!device) {
                return;
            } else if (word.substr(0, 7) == "rbytes=") {
                bytes.read += whole_number(word.substr(7)).value_or(0);
            } else if (word.substr(0, 7) == "wbytes=") {
                bytes.written += whole_number(word.substr(7)).value_or(0);
            } else if (previous == "Read" || previous == "Write") {
                (previous == "Read" ? bytes.read : bytes.written) += whole_number(word).value_or(0);
            }
            previous = word;
        });
    }
    if (!any_device) {
        return std::nullopt;
    }
    return bytes;
}

std::vector<CgroupMembership> cgroup_memberships(std::string_view text) {
    std::vector<CgroupMembership> memberships;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        const std::string_view line = text.substr(at, end - at);
        at = end + 1;
        const std::size_t first = line.find(':');
        const std::size_t second =
            first == std::string_view::npos ? first : line.find(':', first + 1);
        if (second == std::string_view::npos) {
            continue;
        }
        memberships.push_back({std::string(line.substr(first + 1, second - first - 1)),
                               std::string(line.substr(second + 1))});
    }
    return memberships;
}

std::vector<CgroupMembership> cgroup_memberships_of(const std::string &pid) {
    return cgroup_memberships(read_kernel_file("/proc/" + pid + "/cgroup").value_or(""));
}

std::optional<std::string> unified_cgroup_path(const std::vector<CgroupMembership> &memberships) {
    for (const auto &membership : memberships) {
        if (membership.controllers.empty()) {
            return membership.path;
        }
    }
    return std::nullopt;
}

}  // namespace sbx::support
