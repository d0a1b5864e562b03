// Seeded schedules: Floyd's sampling for the faulty positions of a block and for which of
// them hang, geometric gaps between altered bytes.
#include "fault_schedule.hpp"

#include <cmath>
#include <utility>
#include <vector>

namespace sbx::fault_proxy {

std::uint64_t derive_seed(std::uint64_t seed, const std::string &name, std::uint64_t stream) {
    // FNV-1a of the name, then mixed with the seed and the stream through SplitMix64.
    SplitMix64 mix(seed ^ fnv1a64(name));
    SplitMix64 again(mix.next() ^ (stream * 0xd1b54a32d192ed03ULL));
    return again.next();
}

namespace {

// Floyd: `count` distinct values out of 0 .. `range`-1 in O(count) draws.
std::set<std::uint64_t> floyd_sample(SplitMix64 &random, std::uint64_t count, std::uint64_t range) {
    std::set<std::uint64_t> chosen;
    for (std::uint64_t j = range - std::min(count, range); j < range; ++j) {
        const std::uint64_t pick = random.next() % (j + 1);
        if (!chosen.insert(pick).second) {
            chosen.insert(j);
        }
    }
    return chosen;
}

// Salted into the upstream's name for the draw of hung positions: the integer streams of
// derive_seed are all taken (even: blocks, odd: byte corruption).
const char *const kTimeoutSalt = "\ntimeouts";

}  // namespace

std::set<std::uint64_t> reset_positions(std::uint64_t seed, const std::string &name,
                                        std::uint64_t count, std::uint64_t requests,
                                        std::uint64_t block) {
    if (count == 0 || requests == 0) {
        return {};
    }
    // Block b draws from stream 2b; ByteCorrupter seeds use odd ones.
    SplitMix64 random(derive_seed(seed, name, 2 * block));
    return floyd_sample(random, count, requests);
}

BlockFates block_fates(std::uint64_t seed, const std::string &name, std::uint64_t failures,
                       std::uint64_t timeouts, std::uint64_t requests, std::uint64_t block) {
    BlockFates fates;
    fates.resets = reset_positions(seed, name, failures + timeouts, requests, block);
    if (timeouts == 0 || fates.resets.empty()) {
        return fates;
    }
    // Which of the faulty positions hang: ranks among them, drawn the same way.
    const std::vector<std::uint64_t> faulty(fates.resets.begin(), fates.resets.end());
    SplitMix64 random(derive_seed(seed, name + kTimeoutSalt, block));
    for (const std::uint64_t rank : floyd_sample(random, timeouts, faulty.size())) {
        fates.timeouts.insert(faulty[rank]);
        fates.resets.erase(faulty[rank]);
    }
    return fates;
}

ConnectionSchedule::ConnectionSchedule(std::uint64_t seed, std::string name, std::uint64_t failures,
                                       std::uint64_t timeouts, std::uint64_t requests)
    : seed_(seed),
      name_(std::move(name)),
      failures_(failures),
      timeouts_(timeouts),
      requests_(requests) {}

namespace {

// Moves one fault of `from` to `position`: the first of `from` after it goes (a forced fault
// takes the place of the block's next one, so the block keeps its count), and a fault of the
// other kind at `position` moves to where that one was. Nothing moves when no fault of `from`
// is left in the block after `position`: the block then has one more.
void take_next(std::set<std::uint64_t> &from, std::set<std::uint64_t> &other,
               std::uint64_t position) {
    if (from.count(position) != 0) {
        return;
    }
    const auto next = from.upper_bound(position);
    if (next != from.end()) {
        if (other.erase(position) != 0) {
            other.insert(*next);
        }
        from.erase(next);
    } else {
        other.erase(position);
    }
    from.insert(position);
}

}  // namespace

ConnectionSchedule::Ticket ConnectionSchedule::next(Forced forced) {
    const std::lock_guard<std::mutex> lock(mutex_);
    Ticket ticket;
    ticket.index = next_index_++;
    if (requests_ == 0 || (forced == Forced::none && failures_ == 0 && timeouts_ == 0)) {
        return ticket;
    }
    const std::uint64_t block = ticket.index / requests_;
    if (block != block_) {
        fates_ = block_fates(seed_, name_, failures_, timeouts_, requests_, block);
        block_ = block;
    }
    const std::uint64_t position = ticket.index % requests_;
    if (forced == Forced::reset) {
        take_next(fates_.resets, fates_.timeouts, position);
    } else if (forced == Forced::hang) {
        take_next(fates_.timeouts, fates_.resets, position);
    }
    ticket.reset = fates_.resets.count(position) != 0;
    ticket.hang = fates_.timeouts.count(position) != 0;
    return ticket;
}

ByteCorrupter::ByteCorrupter(double rate, std::uint64_t seed) : rate_(rate), random_(seed) {
    if (rate_ > 0) {
        next_corrupt_ = gap();
    }
}

// The gap to the next altered byte is geometric, P(gap = g) = (1 - rate)^g * rate: the
// same as deciding each byte on its own with probability `rate`, in one draw per
// altered byte instead of one per byte.
std::uint64_t ByteCorrupter::gap() {
    if (rate_ >= 1) {
        return 0;
    }
    const double u = 1.0 - random_.unit();  // (0, 1]
    const double g = std::floor(std::log(u) / std::log1p(-rate_));
    constexpr double kFar = 1e18;  // beyond any stream; keeps the sum below UINT64_MAX
    return g >= kFar ? static_cast<std::uint64_t>(kFar) : static_cast<std::uint64_t>(g);
}

std::size_t ByteCorrupter::apply(char *data, std::size_t size) {
    std::size_t altered = 0;
    const std::uint64_t end = offset_ + size;
    while (next_corrupt_ < end) {
        const auto mask = static_cast<unsigned char>(1 + random_.next() % 255);
        auto &byte = data[next_corrupt_ - offset_];
        byte = static_cast<char>(static_cast<unsigned char>(byte) ^ mask);
        ++altered;
        next_corrupt_ += 1 + gap();
    }
    offset_ = end;
    return altered;
}

}  // namespace sbx::fault_proxy
