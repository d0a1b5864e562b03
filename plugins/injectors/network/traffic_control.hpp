// Queueing disciplines on a namespace's links: netem (delay, jitter, loss, duplication)
// where the kernel has it, tbf (bandwidth) everywhere.
#pragma once

#include <string>

namespace sbx::support {
class NetworkEntry;
}

namespace sbx::network {

struct NetemSupport {
    bool available = false;
    std::string reason;  // tc's answer when it is not, e.g. "Specified qdisc kind is unknown."
};

// Whether this kernel has netem, found once per process by adding a netem qdisc to the
// loopback of `scratch` (a namespace nobody uses yet) and removing it again.
const NetemSupport &probe_netem(const support::NetworkEntry &scratch);

struct LinkShaping {
    bool netem = false;  // delay/jitter/loss/duplication through netem on this link
    double delay_ms = 0;
    double jitter_ms = 0;
    double loss = 0;
    double duplication = 0;
    double rate_bits_per_s = 0;  // tbf; 0: none
};

// Installs `shaping` as the root qdisc of `link` in `inside` (nullptr: the host's own
// namespace): netem with a tbf child, or one of them alone. With a rate on loopback, the
// loopback MTU becomes 1500 so that a token bucket of a few packets can pass its packets.
void shape_link(const support::NetworkEntry *inside, const std::string &link,
                const LinkShaping &shaping);

}  // namespace sbx::network
