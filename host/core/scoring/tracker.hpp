// The ROI tracker (docs/semantics.md "Tracker"): remembers how each cycle changed the ROI, per
// module, and decides when improving a module has stopped paying off.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scoring/tracker_settings.hpp"

namespace sbx::scoring {

// One line of rankings().
struct ModuleRanking {
    std::string module;
    double raroi_total = 0;      // Σ of the RAROI values recorded for the module
    double roi_delta_total = 0;  // Σ of its ROI deltas
};

// Not thread-safe: one tracker belongs to one run loop.
class Tracker {
  public:
    // Throws std::invalid_argument for a window or roi_cycles below 1, or a negative
    // tolerance or entropy threshold (tracker_settings_from_environment never gives these).
    explicit Tracker(TrackerSettings settings = {});

    // Records delta = roi_after − roi_before for the cycle and for each module it touched
    // (a module named twice counts once), and the cycle's metrics; then updates the
    // convergence streak of those modules.
    void update(double roi_before, double roi_after, const std::vector<std::string> &modules,
                const std::map<std::string, double> &metrics);
    // Records how the module's entropy changed; the n-th entropy delta of a module pairs
    // with its n-th ROI delta, whichever is recorded first.
    void update_entropy(const std::string &module, double entropy_delta);
    // Records one RAROI value of the module, for rankings().
    void record_raroi(const std::string &module, double raroi);

    // tolerance · (1 + population σ of the last `window` cycle deltas); σ is 0 for fewer
    // than two deltas.
    double diminishing() const;
    // True once |mean of the module's last `window` deltas| ≤ diminishing() held after
    // `roi_cycles` consecutive updates of the module, each with a full window of deltas;
    // then it stays true (the module is skipped from then on), as do modules read by
    // load_flags().
    bool converged(const std::string &module) const;
    std::vector<std::string> converged_modules() const;  // sorted by name
    // The current run of consecutive updates within the threshold.
    int streak(const std::string &module) const;
    // True when the ceiling is on and, over the module's last `window` (ROI delta, entropy
    // delta) pairs, all present, the mean of |ROI delta| / |entropy delta| (pairs with an
    // entropy delta of 0 skipped; at least one must remain) is below entropy_threshold.
    bool entropy_complete(const std::string &module) const;
    // Every module, by Σ RAROI descending, ties by name.
    std::vector<ModuleRanking> rankings() const;

    const TrackerSettings &settings() const { return settings_; }
    const std::vector<double> &deltas() const { return deltas_; }
    const std::vector<std::map<std::string, double>> &metrics_history() const {
        return metrics_history_;
    }
    // The ROI deltas of one module, oldest first (empty for an unknown module).
    std::vector<double> module_deltas(const std::string &module) const;

    // Mean |predicted − actual| over the last `window` pairs (all pairs when window is 0);
    // predicted[i] is the forecast of actual[i], extra values on either side are ignored.
    // 0 when there are no pairs.
    static double rolling_mae(const std::vector<double> &predicted,
                              const std::vector<double> &actual, size_t window);
    // 1 / (1 + EMA₀.₃ of |predicted − actual|), the EMA starting at the first error; in
    // (0, 1], and 1 when there are no pairs.
    static double reliability(const std::vector<double> &predicted,
                              const std::vector<double> &actual);

    // The whole state (not the settings), to resume a tracker in a later run.
    nlohmann::json to_json() const;
    // Throws InputError when `state` is not what to_json() writes.
    static Tracker from_json(const nlohmann::json &state, TrackerSettings settings);

    // Writes {"converged": [modules]} to `path` (by convention `<name>.flags`) atomically:
    // a reader sees the old file or the new one, never half of one. Throws
    // EnvironmentError naming the path when it cannot be written.
    void save_flags(const std::filesystem::path &path) const;
    // Marks the modules in a flags file as converged; a missing file marks none. Throws
    // InputError "path:line:column: ..." for a file that is not a flags file.
    void load_flags(const std::filesystem::path &path);

  private:
    struct ModuleHistory {
        std::vector<double> roi_deltas;
        std::vector<double> entropy_deltas;
        std::vector<double> raroi;
        int streak = 0;
    };

    void update_streak(const std::string &module, ModuleHistory &history, double threshold);

    TrackerSettings settings_;
    std::vector<double> deltas_;
    std::vector<std::map<std::string, double>> metrics_history_;
    std::map<std::string, ModuleHistory> modules_;
    std::set<std::string> converged_;
};

}  // namespace sbx::scoring
