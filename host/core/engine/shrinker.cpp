// The shrink loop: the original first, then rounds of fault keys and inputs, each
// candidate tried once, until a round removes nothing or the budget is spent.
#include "engine/shrinker.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "config/profile_names.hpp"
#include "engine/ddmin.hpp"
#include "engine/example_diff.hpp"
#include "engine/input_generation.hpp"
#include "engine/input_shrink.hpp"

namespace sbx::engine {

using nlohmann::json;

namespace {

// Keys that name the preset or choose how and where it runs rather than inject a fault.
bool names_or_chooses(const std::string &key) {
    static const std::set<std::string> kept = {
        "SCENARIO_NAME",     "SANDBOX_STUB_STRATEGY", "SANDBOX_FAKER_LOCALE",
        "SCHEMA_MISMATCHES", "SCHEMA_CHECKS",         "OS_TYPE",
        "CONTAINER_IMAGE",   "VM_SETTINGS",           "GPU_LIMIT"};
    return kept.count(key) != 0;
}

// FAILURE_MODES entries that say how the inputs were made; they also decide the scoring.
bool is_input_mode(const std::string &mode) {
    const auto canonical = config::canonical_profile_name(mode);
    return canonical && (*canonical == "hostile_input" || *canonical == "user_misuse" ||
                         *canonical == "schema_drift");
}

constexpr const char *kModes = "FAILURE_MODES";

// One removable piece of a preset: a key, or one entry of FAILURE_MODES.
struct FaultItem {
    std::string key;
    std::string mode;  // set for a FAILURE_MODES entry

    std::string name() const { return mode.empty() ? key : key + ": " + mode; }
};

std::vector<FaultItem> fault_items(const json &body) {
    std::vector<FaultItem> items;
    for (const auto &[key, value] : body.items()) {
        if (names_or_chooses(key)) {
            continue;
        }
        if (key != kModes) {
            items.push_back({key, ""});
            continue;
        }
        for (const auto &mode : strategy_chain(value)) {
            if (!is_input_mode(mode)) {
                items.push_back({key, mode});
            }
        }
    }
    return items;
}

// `body` with only the kept items of the removable ones (and everything not removable).
json with_faults(const json &body, const std::vector<FaultItem> &kept) {
    json result = json::object();
    std::vector<std::string> modes;
    for (const auto &member : body.items()) {
        const std::string &key = member.key();
        const bool kept_key = std::any_of(kept.begin(), kept.end(), [&](const FaultItem &item) {
            return item.key == key && item.mode.empty();
        });
        if (names_or_chooses(key) || kept_key) {
            result[key] = member.value();
        }
    }
    const auto found = body.find(kModes);
    if (found == body.end()) {
        return result;
    }
    for (const auto &mode : strategy_chain(*found)) {
        const bool kept_mode = std::any_of(kept.begin(), kept.end(), [&](const FaultItem &item) {
            return item.key == kModes && item.mode == mode;
        });
        if (is_input_mode(mode) || kept_mode) {
            modes.push_back(mode);
        }
    }
    if (modes.empty()) {
        return result;
    }
    if (found->is_array()) {
        result[kModes] = modes;
    } else {  // a comma-separated text stays one
        std::string text;
        for (const auto &mode : modes) {
            text += (text.empty() ? "" : ",") + mode;
        }
        result[kModes] = text;
    }
    return result;
}

// Thrown by a test once the budget is spent: unwinds every pass at once.
struct BudgetSpent {};

class Shrinker {
  public:
    Shrinker(const FailsTheSameWay &fails, int max_runs) : fails_(fails), max_runs_(max_runs) {}

    bool test(const json &inputs, const json &body) {
        const auto key = candidate_key(inputs, body);
        const auto known = tried_.find(key);
        if (known != tried_.end()) {
            if (known->second) {
                best_inputs_ = inputs;
                best_body_ = body;
            }
            return known->second;
        }
        if (runs_ >= max_runs_) {
            throw BudgetSpent{};
        }
        ++runs_;
        const bool failed = fails_(inputs, body);
        tried_.emplace(key, failed);
        if (failed) {
            best_inputs_ = inputs;
            best_body_ = body;
        }
        return failed;
    }

    void shrink_faults() {
        const auto items = fault_items(body_);
        if (items.empty()) {
            return;
        }
        // None at all is the simplest schedule: one run when the faults do not matter.
        const json bare = with_faults(body_, {});
        if (test(inputs_, bare)) {
            body_ = bare;
            return;
        }
        const auto kept = ddmin<FaultItem>(items, [&](const std::vector<FaultItem> &candidate) {
            return test(inputs_, with_faults(body_, candidate));
        });
        body_ = with_faults(body_, kept);
    }

    // Each json slot with an example, toward it: the fewest changes that still fail.
    void toward_examples(const std::map<std::string, json> &examples) {
        for (const auto &entry : examples) {
            // Named copies: a lambda below uses them (C++17 lambdas cannot capture bindings).
            const std::string &slot = entry.first;
            const json &example = entry.second;
            if (!inputs_.is_object() || !inputs_.contains(slot)) {
                continue;
            }
            const json original = inputs_[slot];
            const auto document = document_of(original);
            auto changes =
                document ? changes_between(example, *document) : std::vector<DocumentChange>{};
            if (changes.empty()) {
                continue;
            }
            const auto as_value = [&](const std::vector<DocumentChange> &subset) {
                const json edited = with_changes(example, subset);
                return original.is_string() ? json(edited.dump()) : edited;
            };
            // The last subset that failed: what a spent budget leaves (best_inputs_), named.
            std::vector<DocumentChange> last_failing;
            const std::function<bool(const std::vector<DocumentChange> &)> fails =
                [&](const std::vector<DocumentChange> &subset) {
                    json inputs = inputs_;
                    inputs[slot] = as_value(subset);
                    const bool failed = test(inputs, body_);
                    if (failed) {
                        last_failing = subset;
                    }
                    return failed;
                };
            const auto name_changes = [&](const std::vector<DocumentChange> &kept) {
                auto &labels = broken_by_[slot];
                labels.clear();
                for (const DocumentChange &change : kept) {
                    labels.push_back(change.label);
                }
            };
            // Every change at once first: a failure that needs what parsing loses (a key
            // written twice, the text's own spelling) is not made of these changes.
            if (!fails(changes)) {
                continue;
            }
            try {
                changes = ddmin<DocumentChange>(changes, fails);
            } catch (const BudgetSpent &) {
                name_changes(last_failing);  // fewer than at first, maybe not the fewest
                throw;
            }
            inputs_[slot] = as_value(changes);
            toward_example_.insert(slot);
            name_changes(changes);
        }
    }

    void shrink_inputs() {
        if (!inputs_.is_object()) {
            return;
        }
        for (const auto &[slot, value] : inputs_.items()) {
            const std::string name = slot;
            if (toward_example_.count(name) != 0) {
                continue;  // already the example with the fewest changes: keep it readable
            }
            const json original = value;
            inputs_[name] = shrink_value(original, [&](const json &candidate) {
                json inputs = inputs_;
                inputs[name] = candidate;
                return test(inputs, body_);
            });
        }
    }

    json inputs_;
    json body_;
    std::set<std::string> toward_example_;
    std::map<std::string, std::vector<std::string>> broken_by_;
    // The last candidate that failed: where a spent budget leaves the shrinking.
    json best_inputs_;
    json best_body_;
    int runs_ = 0;

  private:
    const FailsTheSameWay &fails_;
    int max_runs_;
    std::map<std::string, bool> tried_;
};

}  // namespace

std::string candidate_key(const json &inputs, const json &preset_body) {
    return inputs.dump() + '\n' + preset_body.dump();
}

size_t inputs_size(const json &inputs) {
    size_t size = 0;
    if (inputs.is_object()) {
        for (const auto &[slot, value] : inputs.items()) {
            size += value_size(value);
        }
    }
    return size;
}

ShrinkResult shrink_failure(const json &inputs, const json &preset_body,
                            const FailsTheSameWay &fails_the_same_way, int max_runs,
                            const std::map<std::string, json> &examples) {
    Shrinker shrinker(fails_the_same_way, max_runs);
    shrinker.inputs_ = inputs;
    shrinker.body_ = preset_body;
    ShrinkResult result;
    try {
        result.reproducible = shrinker.test(inputs, preset_body);
        if (result.reproducible) {
            shrinker.toward_examples(examples);
            // Faults first: fewer faults make every later run cheaper.
            for (;;) {
                const auto before = candidate_key(shrinker.inputs_, shrinker.body_);
                shrinker.shrink_faults();
                shrinker.shrink_inputs();
                if (candidate_key(shrinker.inputs_, shrinker.body_) == before) {
                    break;
                }
            }
            result.minimal = true;
        }
        result.inputs = shrinker.inputs_;
        result.preset_body = shrinker.body_;
    } catch (const BudgetSpent &) {
        // A pass was cut short: its last failing candidate is smaller, maybe not minimal.
        result.inputs = shrinker.best_inputs_;
        result.preset_body = shrinker.best_body_;
    }
    if (!result.reproducible) {
        result.inputs = inputs;
        result.preset_body = preset_body;
    }
    result.runs = shrinker.runs_;
    result.broken_by = shrinker.broken_by_;
    for (const auto &item : fault_items(preset_body)) {
        const auto left = fault_items(result.preset_body);
        if (std::none_of(left.begin(), left.end(), [&](const FaultItem &other) {
                return other.key == item.key && other.mode == item.mode;
            })) {
            result.removed_fault_keys.push_back(item.name());
        }
    }
    return result;
}

}  // namespace sbx::engine
