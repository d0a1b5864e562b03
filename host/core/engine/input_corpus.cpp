// The feedback corpus: which input is mutated next, its sets asked of the strategy, and
// which runs' inputs join.
#include "engine/input_corpus.hpp"

#include <algorithm>

#include "engine/example_diff.hpp"
#include "util/errors.hpp"

namespace sbx::engine {
namespace {

using nlohmann::json;

// How many sets of one input the strategy is asked for at most, in turns: past this an
// input's edits are all tried (the hostile stub repeats its catalogue from there).
constexpr int kTurnsPerInput = 64;

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

bool has_structured_slot(const config::Workflow &workflow) {
    const auto slots = slots_in_order(workflow);
    return std::any_of(slots.begin(), slots.end(), [](const config::InputSlot *slot) {
        return slot->type == "json" && !given_value(*slot).is_null();
    });
}

InputCorpus::InputCorpus(const config::Workflow &workflow, std::string slot,
                         const std::vector<json> &kept, int turn)
    : workflow_(workflow), slot_(std::move(slot)), turn_(std::max(turn, 1)) {
    for (const config::InputSlot *declared : slots_in_order(workflow)) {
        if (declared->name == slot_) {
            entries_.push_back({given_value(*declared)});
        } else if (!given_value(*declared).is_null()) {
            fixed_[declared->name] = given_value(*declared);
        }
    }
    if (entries_.empty()) {  // explored_slot names a declared slot; this is a caller's slip
        entries_.push_back({json()});
    }
    // A kept corpus: the inputs furthest from the example are mutated first.
    for (const json &value : kept) {
        entries_.push_back({value, 0, distance(value)});
        fresh_.push_back(entries_.size() - 1);
    }
    std::stable_sort(fresh_.begin(), fresh_.end(), [this](std::size_t a, std::size_t b) {
        return entries_[a].changes < entries_[b].changes;
    });
}

void InputCorpus::skip_example_sets(int sets) {
    entries_.front().consumed = std::max(entries_.front().consumed, sets);
}

std::optional<std::size_t> InputCorpus::pick() {
    if (!fresh_.empty()) {
        current_ = fresh_.back();
        fresh_.pop_back();
        turn_left_ = turn_;
        return current_;
    }
    if (current_ && turn_left_ > 0 && !entries_[*current_].spent) {
        return current_;
    }
    // Else the input whose edits went least far.
    std::optional<std::size_t> least;
    for (std::size_t i = 0; i < entries_.size(); ++i) {
        if (!entries_[i].spent && (!least || entries_[i].consumed < entries_[*least].consumed)) {
            least = i;
        }
    }
    current_ = least;
    turn_left_ = turn_;
    return least;
}

const CellInputs &InputCorpus::sets_of(PluginSet &plugins, store::Store &store,
                                       const presets::Preset &preset, int64_t seed,
                                       std::size_t entry, int wanted) {
    const int held = cached_entry_ == entry ? static_cast<int>(cached_.input_sets.size()) : 0;
    if (held >= wanted) {
        return cached_;
    }
    // Doubling: a long turn asks the strategy a logarithmic number of times.
    const int count =
        std::min(std::max({wanted + turn_ - 1, 2 * held, turn_}), kTurnsPerInput * turn_);
    cached_entry_.reset();  // a throwing strategy leaves nothing half cached
    cached_ =
        generate_cell_inputs(plugins, store, with_example(workflow_, slot_, entries_[entry].value),
                             preset, count, seed, false);
    cached_entry_ = entry;
    return cached_;
}

std::vector<CorpusInput> InputCorpus::next(PluginSet &plugins, store::Store &store,
                                           const presets::Preset &preset, int64_t seed, int count) {
    std::vector<CorpusInput> inputs;
    while (static_cast<int>(inputs.size()) < count) {
        const auto entry = pick();
        if (!entry) {
            exhausted_ = true;
            break;
        }
        if (entries_[*entry].consumed >= kTurnsPerInput * turn_) {
            entries_[*entry].spent = true;
            continue;
        }
        const int j = entries_[*entry].consumed;
        const CellInputs &sets = sets_of(plugins, store, preset, seed, *entry, j + 1);
        ++entries_[*entry].consumed;
        --turn_left_;
        json set = sets.input_sets[static_cast<std::size_t>(j)];
        for (const auto &[name, value] : fixed_) {
            set[name] = value;
        }
        if (tried_.insert(set.dump(-1, ' ', false, json::error_handler_t::replace)).second) {
            inputs.push_back({std::move(set), sets.meta[static_cast<std::size_t>(j)], *entry});
        }
    }
    return inputs;
}

bool InputCorpus::observe(const CorpusInput &input, const std::map<std::string, double> &metrics) {
    const auto fresh = metrics.find("new_lines_in_cell");
    if (fresh == metrics.end()) {
        return false;
    }
    coverage_ = true;
    if (fresh->second <= 0) {
        return false;
    }
    ++runs_with_new_lines_;
    // Only an input the program took in joins (one it refused reached its refusal's lines,
    // and edits of it are refused the same way), and only one that is its parent with one
    // or two edits: its new lines are those edits', and its own edits go one branch deeper.
    // A set of many edits at once reaches new lines too, but its edits lead nowhere in
    // particular.
    const auto accepted = metrics.find("outcome_accepted");
    const auto value = input.set.find(slot_);
    if (accepted == metrics.end() || accepted->second <= 0 || value == input.set.end() ||
        !like_example(*value) || input.parent >= entries_.size() ||
        *value == entries_[input.parent].value) {
        return false;
    }
    const std::size_t changes = distance(*value);
    if (changes > entries_[input.parent].changes + 2) {
        return false;
    }
    entries_.push_back({*value, 0, changes});
    fresh_.push_back(entries_.size() - 1);
    found_.push_back(*value);
    return true;
}

// Whether `value` can be an example in its turn: a document of the example's own kind (an
// object for an object) when the example is one, not a payload that happens to parse
// (10,000 brackets) or raw bytes; any value when the example is no document.
bool InputCorpus::like_example(const json &value) const {
    const auto example = document_of(entries_.front().value);
    if (!example) {
        return true;
    }
    const auto document = document_of(value);
    return document && document->type() == example->type();
}

// The changes between the example and `value` when both are documents, else one.
std::size_t InputCorpus::distance(const json &value) const {
    const auto example = document_of(entries_.front().value);
    const auto document = document_of(value);
    return example && document ? changes_between(*example, *document).size() : 1;
}

}  // namespace sbx::engine
