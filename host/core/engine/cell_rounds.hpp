// The order a matrix runs one cell's repetitions in: rounds. Most cells are one round,
// every repetition at once. A cell that learns from coverage (learns_from_coverage) is
// several: first the strategy's own first-tried sets, then rounds made only when the round
// before ended, from the feedback corpus those runs grew (engine/input_corpus.hpp).
#pragma once

#include <optional>
#include <vector>

#include "engine/cell_work.hpp"
#include "engine/input_corpus.hpp"
#include "engine/plugin_set.hpp"
#include "store/store.hpp"

namespace sbx::engine {

// True for an on-cell of a robustness scenario whose inputs a strategy makes, whose
// workflow has a json slot with an example, and that has more runs than the first round:
// there coverage can say which edits of the example lead somewhere.
bool learns_from_coverage(const CellWork &work);

class CellRounds {
  public:
    // The strategy's first-tried sets: the hostile stub's 13 potency-first ones.
    static constexpr int kFirstRound = 13;
    // The runs of each later round. Rationale: a round waits for the one before it, so a
    // short one follows new lines sooner (explore: one run) and a long one keeps more
    // workers busy; 8 fills a matrix's workers while its other cells run beside it.
    static constexpr int kRound = 8;

    CellRounds(const CellWork &work, bool learns);

    // The repetitions of the current round: [begin(), end()).
    [[nodiscard]] int begin() const { return begin_; }
    [[nodiscard]] int end() const { return end_; }
    [[nodiscard]] bool learns() const { return corpus_.has_value(); }

    // Once every run of the current round has its slot in `work`: tells the corpus how
    // they went, writes the next round's sets into `work` (asking the strategy through
    // `plugins`) and returns true; false when the cell has no round left. Without coverage
    // data after the first round, the rest is one round of the strategy's own sets.
    bool advance(PluginSet &plugins, store::Store &store, CellWork &work);

  private:
    std::optional<InputCorpus> corpus_;
    std::vector<CorpusInput> made_;  // the current round's sets from the corpus, in order
    int begin_ = 0;
    int end_ = 0;
};

}  // namespace sbx::engine
