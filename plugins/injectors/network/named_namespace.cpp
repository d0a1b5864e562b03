// `ip netns add` rather than unshare()+bind mount by hand: the namespace then shows in
// `ip netns list` under a recognisable name, and `ip` handles the /run/netns mount
// propagation. It runs once per preset, not per run, so its few milliseconds do not matter.
#include "named_namespace.hpp"

#include <sbx/plugin.hpp>

#include <unistd.h>

#include <atomic>
#include <filesystem>

#include "support/number_parse.hpp"
#include "support/system_tool.hpp"

namespace sbx::network {

using support::find_tool;
using support::run_tool;
using support::run_tool_checked;
namespace {

std::atomic<unsigned long> g_made{0};

std::string ip_tool() {
    static const std::string path = find_tool("ip", "iproute2");
    return path;
}

std::string base36(unsigned long value) {
    const char *digits = "0123456789abcdefghijklmnopqrstuvwxyz";
    std::string text;
    do {
        text.insert(text.begin(), digits[value % 36]);
        value /= 36;
    } while (value > 0);
    return text;
}

}  // namespace

NetworkNames next_names() {
    const auto pid = static_cast<unsigned long>(::getpid());
    for (;;) {
        const unsigned long serial = ++g_made;
        NetworkNames names{"sbx-" + std::to_string(pid) + "-" + std::to_string(serial),
                           "sbx-" + base36(pid) + "-" + base36(serial)};
        // A crashed host with our pid, not swept yet, may have left these names taken.
        if (!namespace_exists(names.netns) && !link_exists(names.host_link)) {
            return names;
        }
    }
}

bool is_our_name(const std::string &name) {
    // sbx-<digits or lower-case letters>-<same>
    if (name.rfind("sbx-", 0) != 0) {
        return false;
    }
    int dashes = 0;
    bool empty_part = true;
    for (std::size_t i = 4; i < name.size(); ++i) {
        const char c = name[i];
        if (c == '-') {
            if (empty_part) {
                return false;
            }
            ++dashes;
            empty_part = true;
        } else if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z')) {
            empty_part = false;
        } else {
            return false;
        }
    }
    return dashes == 1 && !empty_part;
}

NameParts parts_of(const std::string &netns) {
    NameParts parts;
    const auto dash = netns.rfind('-');
    if (!is_our_name(netns) || dash == std::string::npos) {
        return parts;
    }
    const std::string pid = netns.substr(4, dash - 4);
    const std::string serial = netns.substr(dash + 1);
    // Decimal, as next_names writes them; a name with letters (a link's) has no host pid.
    const auto pid_number = support::parse_uint64(pid, support::LeadingPlus::refused);
    const auto serial_number = support::parse_uint64(serial, support::LeadingPlus::refused);
    if (!pid_number || !serial_number || pid.size() > 9 || serial.size() > 9) {
        return parts;
    }
    parts.pid = static_cast<long>(*pid_number);
    parts.host_link = "sbx-" + base36(static_cast<unsigned long>(parts.pid)) + "-" +
                      base36(static_cast<unsigned long>(*serial_number));
    return parts;
}

std::string namespace_path(const std::string &name) {
    return "/run/netns/" + name;
}

bool namespace_exists(const std::string &name) {
    std::error_code ec;
    return std::filesystem::exists(namespace_path(name), ec);
}

bool link_exists(const std::string &name) {
    std::error_code ec;
    return !name.empty() && std::filesystem::exists("/sys/class/net/" + name, ec);
}

void delete_namespace(const std::string &name) {
    run_tool_checked({ip_tool(), "netns", "delete", name},
                     "cannot delete network namespace " + name);
}

void delete_link(const std::string &name) {
    run_tool_checked({ip_tool(), "link", "delete", name}, "cannot delete link " + name);
}

NamedNamespace::NamedNamespace(std::string name) : name_(std::move(name)) {
    run_tool_checked({ip_tool(), "netns", "add", name_},
                     "cannot create network namespace " + name_ +
                         " (the network injector needs root or CAP_SYS_ADMIN)");
    try {
        run_tool_checked({ip_tool(), "-n", name_, "link", "set", "lo", "up"},
                         "cannot bring loopback up in network namespace " + name_);
    } catch (...) {
        (void)run_tool({ip_tool(), "netns", "delete", name_});
        throw;
    }
}

NamedNamespace::~NamedNamespace() {
    try {
        delete_namespace(name_);
    } catch (const std::exception &e) {
        host::log(SBX_LOG_ERROR, std::string(e.what()) + "; sweep will retry");
    }
}

}  // namespace sbx::network
