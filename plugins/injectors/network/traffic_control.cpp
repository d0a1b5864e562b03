// tc command lines, in one `tc -batch` per link.
#include "traffic_control.hpp"

#include <sbx/plugin.hpp>

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <optional>
#include <vector>

#include "support/network_entry.hpp"
#include "support/system_tool.hpp"

namespace sbx::network {

using support::find_tool;
using support::run_tool;
using support::run_tool_checked;
using support::ToolResult;
namespace {

// Queueing delay a token bucket allows before it drops: a full queue of a slow link.
constexpr const char *kTbfLatency = "200ms";
// MTU given to a rate-limited loopback: that of an Ethernet link.
constexpr int kShapedLoopbackMtu = 1500;

std::string number(double value, const char *format) {
    char text[64];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

std::vector<std::string> tc_command() {
    return {find_tool("tc", "iproute2")};
}

std::string netem_options(const LinkShaping &shaping) {
    // As many packets held as the NFQUEUE helper holds (netem's default is 1000).
    std::string options = "netem limit 8192";
    if (shaping.delay_ms > 0 || shaping.jitter_ms > 0) {
        options += " delay " + number(shaping.delay_ms * 1000, "%.0fus");
        if (shaping.jitter_ms > 0) {
            options += " " + number(shaping.jitter_ms * 1000, "%.0fus");
        }
    }
    if (shaping.loss > 0) {
        options += " loss " + number(shaping.loss * 100, "%.6f%%");
    }
    if (shaping.duplication > 0) {
        options += " duplicate " + number(shaping.duplication * 100, "%.6f%%");
    }
    return options;
}

std::string tbf_options(double rate_bits_per_s) {
    // The bucket holds 10 ms of traffic (a timer tick at HZ=100), and at least two full
    // packets: tbf drops every packet larger than its bucket.
    const double burst_bytes = std::max(rate_bits_per_s / 8 / 100, 2.0 * (kShapedLoopbackMtu + 14));
    return "tbf rate " + number(rate_bits_per_s, "%.0fbit") + " burst " +
           number(burst_bytes, "%.0f") + " latency " + kTbfLatency;
}

}  // namespace

const NetemSupport &probe_netem(const support::NetworkEntry &scratch) {
    static std::mutex mutex;
    static std::optional<NetemSupport> support;
    const std::lock_guard<std::mutex> lock(mutex);
    if (!support) {
        auto argv = tc_command();
        argv.insert(argv.end(), {"qdisc", "add", "dev", "lo", "root", "handle", "1:", "netem"});
        const ToolResult added =
            run_tool(argv, "", support::Output::merged, std::chrono::milliseconds(0), &scratch);
        NetemSupport probed;
        probed.available = added.exit_code == 0;
        probed.reason = added.output;
        if (probed.available) {
            auto remove = tc_command();
            remove.insert(remove.end(), {"qdisc", "del", "dev", "lo", "root"});
            (void)run_tool(remove, "", support::Output::merged, std::chrono::milliseconds(0),
                           &scratch);
        }
        support = probed;
    }
    return *support;
}

void shape_link(const support::NetworkEntry *inside, const std::string &link,
                const LinkShaping &shaping) {
    std::string batch;
    if (shaping.netem) {
        batch += "qdisc add dev " + link + " root handle 1: " + netem_options(shaping) + "\n";
        if (shaping.rate_bits_per_s > 0) {
            batch += "qdisc add dev " + link +
                     " parent 1:1 handle 10: " + tbf_options(shaping.rate_bits_per_s) + "\n";
        }
    } else if (shaping.rate_bits_per_s > 0) {
        batch += "qdisc add dev " + link +
                 " root handle 10: " + tbf_options(shaping.rate_bits_per_s) + "\n";
    }
    if (batch.empty()) {
        return;
    }
    const std::string where = inside == nullptr ? "the host" : inside->path();
    if (link == "lo" && shaping.rate_bits_per_s > 0) {
        run_tool_checked({find_tool("ip", "iproute2"), "link", "set", "lo", "mtu",
                          std::to_string(kShapedLoopbackMtu)},
                         "cannot set the loopback MTU in " + where, "", inside);
    }
    auto argv = tc_command();
    argv.insert(argv.end(), {"-batch", "-"});
    run_tool_checked(argv, "cannot shape " + link + " in " + where, batch, inside);
}

}  // namespace sbx::network
