// Which misuses each input set gets: a seeded order of the kinds that apply, one kind per
// set in turn, each kind rotating through its slots, some sets with a second misuse.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <sbx/random.hpp>
#include "kinds.hpp"

namespace sbx_misuse {

using Rng = sbx::SplitMix64;

struct Misuse {
    Kind kind = Kind::wrong_type;
    std::size_t slot = 0;  // index into the slots; unused for extra_slot
};

class Schedule {
  public:
    // `enabled`: the kinds the configuration allows. Only those that apply to at least one
    // slot are scheduled (extra_slot always applies). Draws its seeded start from `rng`.
    Schedule(const std::vector<Slot> &slots, const std::vector<Kind> &enabled, Rng &rng);

    // True when no enabled kind applies: every set stays valid.
    [[nodiscard]] bool empty() const { return plans_.empty(); }

    // The scheduled kinds, in kAllKinds order: every kind these slots can be misused by.
    [[nodiscard]] std::vector<Kind> kinds() const {
        std::vector<Kind> kinds;
        for (const Plan &plan : plans_) {
            kinds.push_back(plan.kind);
        }
        return kinds;
    }

    // The misuses of the next input set, at most one per slot: the next kind of the current
    // round (a seeded order of all scheduled kinds, reshuffled every round, so every
    // `kinds` consecutive sets from the first meet each kind once) at that kind's next slot;
    // then, one set in kCompoundOdds, a second misuse of another kind on another slot.
    std::vector<Misuse> next(Rng &rng);

    static constexpr uint64_t kCompoundOdds = 4;

  private:
    struct Plan {
        Kind kind = Kind::wrong_type;
        std::vector<std::size_t> slots;  // the slots it applies to; empty for extra_slot
        std::size_t turn = 0;            // its next slot, from a seeded start
    };

    std::vector<Plan> plans_;         // in kAllKinds order
    std::vector<std::size_t> round_;  // plan indexes, in this round's order
    std::size_t position_ = 0;        // next place in round_
};

}  // namespace sbx_misuse
