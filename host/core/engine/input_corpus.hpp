// The corpus of coverage feedback, shared by `explore` and a matrix's robustness cells: the
// inputs of one slot that the program accepted and whose runs reached lines no earlier run
// of the cell had (the coverage collector's `new_lines_in_cell`), each mutated in its turn
// by the preset's stub strategy (hostile: structural edits of the input as the slot's
// example). The newest input is mutated first, depth first, since one joins only as its
// parent with one or two edits: AFL's loop, with a whole run as the unit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "config/settings.hpp"
#include "engine/input_generation.hpp"
#include "engine/plugin_set.hpp"
#include "presets/preset.hpp"
#include "store/store.hpp"

namespace sbx::engine {

// The slot coverage feedback varies: `wanted` when the workflow declares it (else
// InputError naming the slots it has), or the first json slot with an example, else the
// first slot. InputError when the workflow has no inputs.
std::string explored_slot(const config::Workflow &workflow, const std::string &wanted);

// True when the workflow has a json slot with an example (or default): one whose
// structure the strategy can edit, which coverage feedback follows.
bool has_structured_slot(const config::Workflow &workflow);

// One set to run: the strategy's edit of corpus input `parent`, the other slots at their
// examples.
struct CorpusInput {
    nlohmann::json set;
    nlohmann::json meta;  // the strategies' meta for it (as CellInputs::meta)
    std::size_t parent = 0;
};

class InputCorpus {
  public:
    // `kept`: values of the slot an earlier explore kept, mutated before the example (the
    // furthest from it first). `turn`: sets of one input tried in a row before the next.
    InputCorpus(const config::Workflow &workflow, std::string slot,
                const std::vector<nlohmann::json> &kept, int turn);

    [[nodiscard]] const std::string &slot() const { return slot_; }

    // The example's first `sets` were run as the strategy made them (a matrix's first
    // round, every slot edited): its edits go on from there.
    void skip_example_sets(int sets);

    // Up to `count` sets never tried before; fewer only when every input's edits are spent
    // (exhausted() then says so). Asks the strategy through `plugins` (uncached).
    std::vector<CorpusInput> next(PluginSet &plugins, store::Store &store,
                                  const presets::Preset &preset, int64_t seed, int count);

    // Told the metrics of the run of `input`: true when its value joined the corpus (an
    // input the program accepted, that reached new lines, of the example's own kind, and
    // its parent with one or two edits).
    bool observe(const CorpusInput &input, const std::map<std::string, double> &metrics);

    // Whether any observed run gave coverage data: without it the corpus cannot grow.
    [[nodiscard]] bool coverage() const { return coverage_; }
    [[nodiscard]] int runs_with_new_lines() const { return runs_with_new_lines_; }
    // The values that joined, in order (not the example nor a kept corpus).
    [[nodiscard]] const std::vector<nlohmann::json> &found() const { return found_; }
    [[nodiscard]] bool exhausted() const { return exhausted_; }

  private:
    struct Entry {
        nlohmann::json value;
        int consumed = 0;         // how far into the strategy's sets for it the runs went
        std::size_t changes = 0;  // how far it is from the example (engine/example_diff.hpp)
        bool spent = false;       // every set the strategy gives it was taken
    };

    std::optional<std::size_t> pick();
    // The strategy's sets for `entry`, at least `wanted` of them when it gives that many.
    const CellInputs &sets_of(PluginSet &plugins, store::Store &store,
                              const presets::Preset &preset, int64_t seed, std::size_t entry,
                              int wanted);
    [[nodiscard]] bool like_example(const nlohmann::json &value) const;
    [[nodiscard]] std::size_t distance(const nlohmann::json &value) const;

    const config::Workflow &workflow_;
    std::string slot_;
    int turn_;
    std::map<std::string, nlohmann::json> fixed_;  // the other slots: their examples
    std::vector<Entry> entries_;                   // the example first
    std::vector<std::size_t> fresh_;               // entries not yet mutated, the newest last
    std::optional<std::size_t> current_;           // the entry whose turn it is
    int turn_left_ = 0;
    std::set<std::string> tried_;
    // The strategy's sets of one entry at a time: an input mutated for a turn is asked
    // once, not once per set (the sets of every entry at once would hold megabytes each).
    std::optional<std::size_t> cached_entry_;
    CellInputs cached_;
    std::vector<nlohmann::json> found_;
    bool coverage_ = false;
    int runs_with_new_lines_ = 0;
    bool exhausted_ = false;
};

}  // namespace sbx::engine
