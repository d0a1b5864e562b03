// Rounds of a cell: the first one the strategy's, the later ones the feedback corpus's.
#include "engine/cell_rounds.hpp"

#include <algorithm>

#include "engine/run_outcome_class.hpp"

namespace sbx::engine {

bool learns_from_coverage(const CellWork &work) {
    return !work.options.counterfactual && work.strategy != "input_stubs" &&
           work.options.runs > CellRounds::kFirstRound && is_robustness_preset(work.preset) &&
           has_structured_slot(*work.workflow);
}

CellRounds::CellRounds(const CellWork &work, bool learns) {
    const int runs = work.options.runs;
    end_ = learns ? std::min(runs, kFirstRound) : runs;
    if (learns) {
        corpus_.emplace(*work.workflow, explored_slot(*work.workflow, ""),
                        std::vector<nlohmann::json>{}, kRound);
        corpus_->skip_example_sets(end_);
    }
}

bool CellRounds::advance(PluginSet &plugins, store::Store &store, CellWork &work) {
    const int runs = work.options.runs;
    if (end_ >= runs) {
        return false;
    }
    if (corpus_) {
        // The first round's sets are the strategy's edits of the example; a later round's
        // are the corpus's, each of its own parent.
        if (begin_ == 0) {
            for (int j = 0; j < end_; ++j) {
                const auto at = static_cast<std::size_t>(j);
                corpus_->observe({work.input_sets[at], nlohmann::json(), 0},
                                 work.results[at].metrics);
            }
        } else {
            for (std::size_t k = 0; k < made_.size(); ++k) {
                corpus_->observe(made_[k],
                                 work.results[static_cast<std::size_t>(begin_) + k].metrics);
            }
        }
        if (!corpus_->coverage()) {
            corpus_.reset();
        }
    }
    begin_ = end_;
    if (!corpus_) {
        end_ = runs;
        made_.clear();
        return true;
    }
    end_ = std::min(runs, begin_ + kRound);
    // Past an exhausted corpus the strategy's own sets stay in their slots.
    made_ = corpus_->next(plugins, store, work.preset, work.options.seed, end_ - begin_);
    if (!work.input_meta.is_array()) {
        work.input_meta = nlohmann::json::array();
    }
    auto &metas = work.input_meta.get_ref<nlohmann::json::array_t &>();
    metas.resize(std::max(metas.size(), static_cast<std::size_t>(runs)));
    for (std::size_t k = 0; k < made_.size(); ++k) {
        const std::size_t at = static_cast<std::size_t>(begin_) + k;
        work.input_sets[at] = made_[k].set;
        work.input_meta[at] = made_[k].meta;
    }
    work.cell_metrics["feedback_inputs"] = static_cast<double>(corpus_->found().size());
    work.cell_metrics["feedback_runs"] += static_cast<double>(made_.size());
    return true;
}

}  // namespace sbx::engine
