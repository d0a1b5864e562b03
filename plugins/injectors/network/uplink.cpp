// Address choice is serialized across processes by an flock(): two hosts making namespaces
// at the same moment must not take the same /30. The lock is held only until the host side
// of the pair has its address, which is what the next chooser looks at (getifaddrs).
#include "uplink.hpp"

#include <sbx/plugin.hpp>

#include <arpa/inet.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <set>

#include "support/number_parse.hpp"
#include "support/system_tool.hpp"

namespace sbx::network {

using support::find_tool;
using support::run_tool;
using support::run_tool_checked;
namespace {

struct Pool {
    std::uint32_t first = 0;  // host order
    std::uint32_t size = 0;   // addresses in the pool
};

Pool parse_pool(const std::string &cidr) {
    const auto slash = cidr.find('/');
    in_addr address{};
    const auto prefix = slash == std::string::npos
                            ? std::nullopt
                            : support::parse_int64(std::string_view(cidr).substr(slash + 1));
    if (slash == std::string::npos ||
        ::inet_pton(AF_INET, cidr.substr(0, slash).c_str(), &address) != 1 || !prefix ||
        *prefix < 8 || *prefix > 30) {
        throw Error(SBX_INVALID,
                    "uplink_pool '" + cidr +
                        "' is not an IPv4 block from /8 to /30; write e.g. 10.213.0.0/16");
    }
    const auto host_bits = static_cast<int>(32 - *prefix);
    const std::uint32_t mask = ~std::uint32_t{0} << host_bits;
    return {ntohl(address.s_addr) & mask, std::uint32_t{1} << host_bits};
}

std::string dotted(std::uint32_t host_order) {
    in_addr address{htonl(host_order)};
    char text[INET_ADDRSTRLEN] = {};
    ::inet_ntop(AF_INET, &address, text, sizeof text);
    return text;
}

// /30 blocks (by their first address) that some interface of this namespace already uses.
std::set<std::uint32_t> used_blocks() {
    std::set<std::uint32_t> used;
    ifaddrs *list = nullptr;
    if (::getifaddrs(&list) != 0) {
        throw Error(SBX_ERROR, std::string("getifaddrs: ") + std::strerror(errno));
    }
    for (const ifaddrs *entry = list; entry != nullptr; entry = entry->ifa_next) {
        if (entry->ifa_addr != nullptr && entry->ifa_addr->sa_family == AF_INET) {
            std::uint32_t address = 0;
            std::memcpy(&address,
                        &reinterpret_cast<const sockaddr_in *>(entry->ifa_addr)->sin_addr.s_addr,
                        sizeof address);
            used.insert(ntohl(address) & ~std::uint32_t{3});
        }
    }
    ::freeifaddrs(list);
    return used;
}

// Exclusive flock on a file shared by every sandbox-runner of the machine.
class MachineLock {
  public:
    MachineLock() {
        std::error_code ec;
        std::filesystem::create_directories("/run/lock", ec);
        fd_ = ::open("/run/lock/sbx-network-uplink.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (fd_ < 0) {
            throw Error(SBX_ERROR, std::string("cannot open /run/lock/sbx-network-uplink.lock: ") +
                                       std::strerror(errno));
        }
        while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
        }
    }
    ~MachineLock() { ::close(fd_); }  // closing releases the lock
    MachineLock(const MachineLock &) = delete;
    MachineLock &operator=(const MachineLock &) = delete;

  private:
    int fd_ = -1;
};

}  // namespace

Uplink::Uplink(const std::string &netns, std::string host_link, const std::string &pool_text)
    : host_link_(std::move(host_link)) {
    const Pool pool = parse_pool(pool_text);
    const std::string ip = find_tool("ip", "iproute2");
    {
        const MachineLock lock;
        const std::set<std::uint32_t> used = used_blocks();
        std::uint32_t block = 0;
        bool found = false;
        for (std::uint32_t offset = 0; offset < pool.size; offset += 4) {
            if (used.count(pool.first + offset) == 0) {
                block = pool.first + offset;
                found = true;
                break;
            }
        }
        if (!found) {
            throw Error(SBX_ERROR, "every /30 of uplink_pool " + pool_text +
                                       " is in use; give the network injector a larger pool");
        }
        host_address_ = dotted(block + 1);
        inside_address_ = dotted(block + 2);
        // addrgenmode none: no IPv6 link-local address, so no DAD or router solicitations
        // whose packets would draw from the seeded loss schedule.
        const std::string host_side =
            "link add " + host_link_ + " type veth peer name " + kInsideLink + " netns " + netns +
            "\n" + "link set " + host_link_ + " addrgenmode none\n" + "addr add " + host_address_ +
            "/30 dev " + host_link_ + "\n" + "link set " + host_link_ + " up\n";
        try {
            run_tool_checked({ip, "-batch", "-"}, "cannot make the uplink of " + netns, host_side);
        } catch (...) {
            (void)run_tool({ip, "link", "delete", host_link_});
            throw;
        }
    }
    const std::string inside = std::string("link set ") + kInsideLink + " addrgenmode none\n" +
                               "addr add " + inside_address_ + "/30 dev " + kInsideLink + "\n" +
                               "link set " + kInsideLink + " up\n" + "route add default via " +
                               host_address_ + "\n";
    try {
        run_tool_checked({ip, "-n", netns, "-batch", "-"},
                         "cannot configure the uplink inside " + netns, inside);
    } catch (...) {
        (void)run_tool({ip, "link", "delete", host_link_});
        throw;
    }
}

void check_uplink_pool(const std::string &cidr) {
    (void)parse_pool(cidr);
}

Uplink::~Uplink() {
    std::error_code ec;
    if (!std::filesystem::exists("/sys/class/net/" + host_link_, ec)) {
        return;  // already gone (deleting either end of a pair deletes both)
    }
    try {
        run_tool_checked({find_tool("ip", "iproute2"), "link", "delete", host_link_},
                         "cannot delete uplink " + host_link_);
    } catch (const std::exception &e) {
        host::log(SBX_LOG_ERROR, std::string(e.what()) + "; sweep will retry");
    }
}

}  // namespace sbx::network
