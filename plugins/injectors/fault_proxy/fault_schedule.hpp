// The seeded fate of each connection and byte. Connection k of a schedule is faulty when k
// is among the UPSTREAM_FAILURES + UPSTREAM_TIMEOUTS positions drawn for its block of
// UPSTREAM_REQUESTS connections; UPSTREAM_TIMEOUTS of those hang and the others are reset
// (exactly that many of each per complete block). Byte n of a connection's upstream ->
// client stream is altered when a geometric draw lands on it. All depend on the seed, the
// upstream's name and the position alone, never on timing or read sizes.
#pragma once

#include <cstdint>
#include <mutex>
#include <set>
#include <string>

#include <sbx/random.hpp>

namespace sbx::fault_proxy {

// A seed for one purpose: the configured seed, the upstream's name and a stream number.
std::uint64_t derive_seed(std::uint64_t seed, const std::string &name, std::uint64_t stream);

// `count` distinct positions (0 .. requests-1), the faulty connections of block `block`
// (Floyd's sampling, stream 2 * block). With no timeouts these are the resets, so adding
// UPSTREAM_TIMEOUTS to the schedule left the reset positions of older presets unchanged.
std::set<std::uint64_t> reset_positions(std::uint64_t seed, const std::string &name,
                                        std::uint64_t count, std::uint64_t requests,
                                        std::uint64_t block);

// The fates of block `block`: `failures` reset and `timeouts` hung positions, disjoint.
// Which of the block's faulty positions hang is a second draw, from a stream of its own.
struct BlockFates {
    std::set<std::uint64_t> resets;
    std::set<std::uint64_t> timeouts;
};
BlockFates block_fates(std::uint64_t seed, const std::string &name, std::uint64_t failures,
                       std::uint64_t timeouts, std::uint64_t requests, std::uint64_t block);

// Hands out connection numbers in arrival order, with their fate; shared by every proxy
// of one (seed, preset, upstream) in the process, so the schedule runs over all their
// connections. Thread-safe.
class ConnectionSchedule {
  public:
    ConnectionSchedule(std::uint64_t seed, std::string name, std::uint64_t failures,
                       std::uint64_t timeouts, std::uint64_t requests);

    struct Ticket {
        std::uint64_t index = 0;
        bool reset = false;
        bool hang = false;
    };
    // A connection that must meet a fault whatever the draw (a run's potent first fault).
    enum class Forced { none, reset, hang };
    // The next connection's number and fate. A forced fault takes the place of the block's
    // next fault of its kind, so every complete block keeps exactly its counts.
    Ticket next(Forced forced = Forced::none);

  private:
    std::uint64_t seed_;
    std::string name_;
    std::uint64_t failures_;
    std::uint64_t timeouts_;
    std::uint64_t requests_;
    std::mutex mutex_;
    std::uint64_t next_index_ = 0;
    std::uint64_t block_ = UINT64_MAX;  // the block `fates_` belongs to
    BlockFates fates_;
};

// Alters bytes of one connection's upstream -> client stream at `rate`, by absolute offset:
// the same bytes whatever sizes they are read in (seeded with derive_seed(seed, name,
// 2 * connection + 1): odd streams, while reset blocks use even ones). Each altered byte is XORed
// with a nonzero mask, so it always changes.
class ByteCorrupter {
  public:
    ByteCorrupter(double rate, std::uint64_t seed);
    // Alters the bytes of `data` (which start at the stream offset already passed);
    // returns how many were altered.
    std::size_t apply(char *data, std::size_t size);
    // The next byte of the stream is altered, whatever the draw said (a potent first fault);
    // the draws go on from there as before.
    void force_next() { next_corrupt_ = offset_; }

  private:
    std::uint64_t gap();

    double rate_;
    SplitMix64 random_;
    std::uint64_t offset_ = 0;                 // stream offset of data[0]
    std::uint64_t next_corrupt_ = UINT64_MAX;  // stream offset of the next altered byte
};

}  // namespace sbx::fault_proxy
