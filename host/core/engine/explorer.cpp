// The explore loop: one run at a time from the feedback corpus, and the crash kinds.
#include "engine/explorer.hpp"

#include <map>

#include "engine/failure_detail.hpp"
#include "store/run_lookup.hpp"

namespace sbx::engine {
namespace {

using nlohmann::json;

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
          observer_(observer),
          corpus_(workflow, explored_slot(workflow, settings.slot), settings.corpus,
                  settings.batch) {
        outcome_.slot = corpus_.slot();
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
        while (outcome_.runs < settings_.runs) {
            const auto next = corpus_.next(plugins_, store_, preset_, settings_.seed, 1);
            if (next.empty()) {
                outcome_.exhausted = true;
                break;
            }
            run_one(next.front());
        }
        outcome_.coverage = corpus_.coverage();
        outcome_.runs_with_new_lines = corpus_.runs_with_new_lines();
        outcome_.corpus = corpus_.found();
        if (!work_.results.empty()) {
            work_.options.runs = static_cast<int>(work_.results.size());
            cells_.finish(work_);
        }
        return outcome_;
    }

  private:
    // Runs one set of the corpus and tells the corpus how it went.
    void run_one(const CorpusInput &input) {
        work_.input_sets.push_back(input.set);
        work_.input_meta.push_back(input.meta);
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
        corpus_.observe(input, result.metrics);
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
    InputCorpus corpus_;
    CellWork work_;
    ExploreOutcome outcome_;
    std::map<std::string, std::size_t> crash_index_;
};

}  // namespace

ExploreOutcome explore(PluginSet &plugins, CellRunner &cells, store::Store &store,
                       const config::Workflow &workflow, const presets::Preset &preset,
                       const ExploreSettings &settings, RunObserver *observer) {
    return Loop(plugins, cells, store, workflow, preset, settings, observer).run();
}

}  // namespace sbx::engine
