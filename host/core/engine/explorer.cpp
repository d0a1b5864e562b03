// The explore loop: corpus, batches of the strategy's edits, coverage feedback, crash kinds.
#include "engine/explorer.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "engine/example_diff.hpp"
#include "engine/failure_detail.hpp"
#include "engine/input_generation.hpp"
#include "store/run_lookup.hpp"
#include "util/errors.hpp"

namespace sbx::engine {
namespace {

using nlohmann::json;

// The first declaration of each slot, in step order.
std::vector<const config::InputSlot *> slots_in_order(const config::Workflow &workflow) {
    std::vector<const config::InputSlot *> slots;
    for (const config::Step &step : workflow.steps) {
        for (const config::InputSlot &slot : step.inputs) {
            if (std::none_of(slots.begin(), slots.end(),
                             [&](const auto *known) { return known->name == slot.name; })) {
                slots.push_back(&slot);
            }
        }
    }
    return slots;
}

const json &given_value(const config::InputSlot &slot) {
    return !slot.example.is_null() ? slot.example : slot.default_value;
}

// The workflow with `slot`'s example set to `value` wherever it is declared: what the
// strategy edits next.
config::Workflow with_example(const config::Workflow &workflow, const std::string &slot,
                              const json &value) {
    config::Workflow copy = workflow;
    for (config::Step &step : copy.steps) {
        for (config::InputSlot &input : step.inputs) {
            if (input.name == slot) {
                input.example = value;
            }
        }
    }
    return copy;
}

// One input explore mutates: a value of the slot, and how far into the strategy's sets for
// it the runs have gone.
struct CorpusEntry {
    json value;
    int consumed = 0;
    bool given = false;       // the example or a kept corpus: not reported as found
    std::size_t changes = 0;  // how far it is from the example (engine/example_diff.hpp)
};

class Loop {
  public:
    Loop(PluginSet &plugins, CellRunner &cells, store::Store &store,
         const config::Workflow &workflow, const presets::Preset &preset,
         const ExploreSettings &settings, RunObserver *observer)
        : plugins_(plugins),
          cells_(cells),
          store_(store),
          workflow_(workflow),
          preset_(preset),
          settings_(settings),
          observer_(observer) {
        outcome_.slot = explored_slot(workflow, settings.slot);
        for (const config::InputSlot *slot : slots_in_order(workflow)) {
            if (slot->name != outcome_.slot && !given_value(*slot).is_null()) {
                fixed_[slot->name] = given_value(*slot);
            }
            if (slot->name == outcome_.slot) {
                entries_.push_back({given_value(*slot), 0, true});
            }
        }
        // A kept corpus: the inputs furthest from the example are mutated first.
        for (const json &kept : settings.corpus) {
            entries_.push_back({kept, 0, true, distance(kept)});
            fresh_.push_back(entries_.size() - 1);
        }
        std::stable_sort(fresh_.begin(), fresh_.end(), [this](std::size_t a, std::size_t b) {
            return entries_[a].changes < entries_[b].changes;
        });
        work_.workflow = &workflow;
        work_.preset = preset;
        work_.options = {settings.runs, settings.seed, false};
        work_.preset_id = store.preset_id(preset.name, preset.body);
        work_.preset_text = preset.body.dump();
        work_.input_sets = json::array();
        work_.input_meta = json::array();
    }

    ExploreOutcome run() {
        if (observer_ != nullptr) {
            observer_->planned(static_cast<std::size_t>(settings_.runs));
        }
        int batch = settings_.batch;
        std::size_t idle = 0;  // rounds in a row that gave nothing new to run
        while (outcome_.runs < settings_.runs) {
            idle = round(next_entry(), batch) == 0 ? idle + 1 : 0;
            if (idle > entries_.size()) {
                // Every input's next sets were all tried: ask further ahead, up to a point.
                batch *= 2;
                idle = 0;
                if (batch > 64 * settings_.batch) {
                    outcome_.exhausted = true;
                    break;
                }
            }
        }
        if (!work_.results.empty()) {
            work_.options.runs = static_cast<int>(work_.results.size());
            cells_.finish(work_);
        }
        return outcome_;
    }

  private:
    // Whether `value` can be an example in its turn: a document of the example's own kind
    // (an object for an object) when the example is one, not a payload that happens to
    // parse (10,000 brackets) or raw bytes; any value when the example is no document.
    bool like_example(const json &value) const {
        const auto example = document_of(entries_.front().value);
        if (!example) {
            return true;
        }
        const auto document = document_of(value);
        return document && document->type() == example->type();
    }

    // The changes between the example and `value` when both are documents, else one.
    std::size_t distance(const json &value) const {
        const auto example = document_of(entries_.front().value);
        const auto document = document_of(value);
        return example && document ? changes_between(*example, *document).size() : 1;
    }

    // The newest input that reached new lines and was not mutated yet: depth first, since
    // an input joins only as its parent with one or two edits, so its edits go one branch
    // deeper. Else the input whose edits went least far.
    std::size_t next_entry() {
        if (!fresh_.empty()) {
            const std::size_t entry = fresh_.back();
            fresh_.pop_back();
            return entry;
        }
        return static_cast<std::size_t>(
            std::min_element(entries_.begin(), entries_.end(),
                             [](const CorpusEntry &a, const CorpusEntry &b) {
                                 return a.consumed < b.consumed;
                             }) -
            entries_.begin());
    }

    // Runs the strategy's next sets for one input; returns how many ran. Stops early when an
    // input reached new lines: its edits come first.
    int round(std::size_t entry, int batch) {
        const int from = entries_[entry].consumed;
        const config::Workflow edited =
            with_example(workflow_, outcome_.slot, entries_[entry].value);
        const CellInputs inputs = generate_cell_inputs(plugins_, store_, edited, preset_,
                                                       from + batch, settings_.seed, false);
        int ran = 0;
        for (int j = from; j < from + batch && outcome_.runs < settings_.runs; ++j) {
            entries_[entry].consumed = j + 1;
            json set = inputs.input_sets[static_cast<std::size_t>(j)];
            for (const auto &[name, value] : fixed_) {
                set[name] = value;
            }
            if (!tried_.insert(set.dump(-1, ' ', false, json::error_handler_t::replace)).second) {
                continue;
            }
            ++ran;
            if (run_one(set, inputs.meta[static_cast<std::size_t>(j)], entry)) {
                break;
            }
        }
        return ran;
    }

    // Runs one set made from entry `parent`; true when it joined the corpus.
    bool run_one(const json &set, const json &meta, std::size_t parent) {
        work_.input_sets.push_back(set);
        work_.input_meta.push_back(meta);
        work_.results.emplace_back();
        const int repetition = outcome_.runs++;
        if (observer_ != nullptr) {
            observer_->started(workflow_.name, preset_.name, "on");
        }
        cells_.run_one(work_, repetition);
        const RunResult &result = work_.results[static_cast<std::size_t>(repetition)];
        if (observer_ != nullptr) {
            observer_->finished(result.passed);
        }
        const auto run = store::find_run(store_, result.run_id);
        if (run && run->outcome == "accepted") {
            ++outcome_.accepted;
        } else if (run && run->outcome == "rejected" && outcome_.first_refusal.empty() &&
                   !run->steps.empty()) {
            const std::string &text = run->steps.back().stderr;
            const std::size_t start = text.find_first_not_of(" \t\r\n");
            outcome_.first_refusal =
                start == std::string::npos
                    ? ""
                    : stderr_tail(text.substr(start, text.find('\n', start) - start), 1);
        }
        if (!result.passed && run) {
            note_crash(*run);
        }
        const auto fresh = result.metrics.find("new_lines_in_cell");
        if (fresh == result.metrics.end()) {
            return false;
        }
        outcome_.coverage = true;
        if (fresh->second <= 0) {
            return false;
        }
        ++outcome_.runs_with_new_lines;
        // Only an input the program took in joins (one it refused reached its refusal's
        // lines, and edits of it are refused the same way), and only one that is its parent
        // with one or two edits: its new lines are those edits', and its own edits go one
        // branch deeper. A set of many edits at once reaches new lines too, but its edits
        // lead nowhere in particular.
        const auto value = set.find(outcome_.slot);
        if (value == set.end() || !run || run->outcome != "accepted" || !like_example(*value)) {
            return false;
        }
        const std::size_t changes = distance(*value);
        if (changes > entries_[parent].changes + 2) {
            return false;
        }
        entries_.push_back({*value, 0, false, changes});
        fresh_.push_back(entries_.size() - 1);
        outcome_.corpus.push_back(*value);
        return true;
    }

    void note_crash(const store::RecordedRun &run) {
        const auto signature = crash_signature(run);
        if (!signature) {
            return;
        }
        const auto known = crash_index_.find(signature->key);
        if (known != crash_index_.end()) {
            ++outcome_.crashes[known->second].hits;
            return;
        }
        crash_index_[signature->key] = outcome_.crashes.size();
        outcome_.crashes.push_back({*signature, run.id, outcome_.runs, 1});
    }

    PluginSet &plugins_;
    CellRunner &cells_;
    store::Store &store_;
    const config::Workflow &workflow_;
    const presets::Preset &preset_;
    const ExploreSettings &settings_;
    RunObserver *observer_;
    CellWork work_;
    ExploreOutcome outcome_;
    std::map<std::string, json> fixed_;  // the other slots: their examples
    std::vector<CorpusEntry> entries_;
    std::vector<std::size_t> fresh_;  // entries not yet mutated, the newest last
    std::set<std::string> tried_;
    std::map<std::string, std::size_t> crash_index_;
};

}  // namespace

std::string explored_slot(const config::Workflow &workflow, const std::string &wanted) {
    const auto slots = slots_in_order(workflow);
    std::string names;
    for (const config::InputSlot *slot : slots) {
        if (!wanted.empty() && slot->name == wanted) {
            return wanted;
        }
        names += (names.empty() ? "" : ", ") + slot->name;
    }
    if (slots.empty()) {
        throw InputError("explore: workflow '" + workflow.name +
                         "' has no inputs to explore; declare one under a step's `inputs:`");
    }
    if (!wanted.empty()) {
        throw InputError("explore: --slot " + wanted + ": workflow '" + workflow.name +
                         "' has no such input; its inputs are " + names);
    }
    for (const config::InputSlot *slot : slots) {
        if (slot->type == "json" && !given_value(*slot).is_null()) {
            return slot->name;
        }
    }
    return slots.front()->name;
}

ExploreOutcome explore(PluginSet &plugins, CellRunner &cells, store::Store &store,
                       const config::Workflow &workflow, const presets::Preset &preset,
                       const ExploreSettings &settings, RunObserver *observer) {
    return Loop(plugins, cells, store, workflow, preset, settings, observer).run();
}

}  // namespace sbx::engine
