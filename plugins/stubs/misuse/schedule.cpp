// The seeded misuse schedule (see schedule.hpp).
#include "schedule.hpp"

#include <utility>

namespace sbx_misuse {

Schedule::Schedule(const std::vector<Slot> &slots, const std::vector<Kind> &enabled, Rng &rng) {
    for (Kind kind : kAllKinds) {
        bool is_enabled = false;
        for (Kind e : enabled) {
            is_enabled = is_enabled || e == kind;
        }
        if (!is_enabled) {
            continue;
        }
        Plan plan;
        plan.kind = kind;
        for (std::size_t i = 0; i < slots.size(); ++i) {
            if (applies(kind, slots[i])) {
                plan.slots.push_back(i);
            }
        }
        if (kind != Kind::extra_slot && plan.slots.empty()) {
            continue;
        }
        plan.turn = plan.slots.empty() ? 0 : rng.below(plan.slots.size());
        plans_.push_back(std::move(plan));
    }
    for (std::size_t i = 0; i < plans_.size(); ++i) {
        round_.push_back(i);
    }
    position_ = round_.size();  // the first next() shuffles
}

std::vector<Misuse> Schedule::next(Rng &rng) {
    if (position_ == round_.size()) {
        for (std::size_t i = round_.size(); i > 1; --i) {  // Fisher-Yates
            std::swap(round_[i - 1], round_[rng.below(i)]);
        }
        position_ = 0;
    }
    const std::size_t primary = round_[position_++];
    Plan &plan = plans_[primary];
    std::vector<Misuse> misuses;
    misuses.push_back(
        {plan.kind, plan.slots.empty() ? 0 : plan.slots[plan.turn++ % plan.slots.size()]});

    if (rng.below(kCompoundOdds) == 0) {
        std::vector<Misuse> others;
        for (std::size_t p = 0; p < plans_.size(); ++p) {
            if (p == primary) {
                continue;
            }
            if (plans_[p].kind == Kind::extra_slot) {
                others.push_back({Kind::extra_slot, 0});
            }
            for (std::size_t slot : plans_[p].slots) {
                if (plan.kind == Kind::extra_slot || slot != misuses.front().slot) {
                    others.push_back({plans_[p].kind, slot});
                }
            }
        }
        if (!others.empty()) {
            misuses.push_back(others[rng.below(others.size())]);
        }
    }
    return misuses;
}

}  // namespace sbx_misuse
