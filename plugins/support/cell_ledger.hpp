// What a collector keeps between the runs of a cell and its cell phase, and of each
// session's baseline cell: the host gives every worker its own collector instance and
// promises no worker a whole cell, so the table is one per process, under a lock.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

namespace sbx::support {

template <typename Tally, typename Baseline>
class CellLedger {
  public:
    // Calls `update(tally)` on the tally of the request's cell, made empty on first use.
    template <typename Update>
    void update(const nlohmann::json &request, Update &&update) {
        const std::lock_guard<std::mutex> lock(mutex_);
        std::forward<Update>(update)(open_[cell_of(request)]);
    }

    // The tally of the cell the request ends, forgotten here (empty when no run added one).
    Tally close(const nlohmann::json &request) {
        const std::lock_guard<std::mutex> lock(mutex_);
        const auto found = open_.find(cell_of(request));
        if (found == open_.end()) {
            return Tally{};
        }
        Tally tally = std::move(found->second);
        open_.erase(found);
        return tally;
    }

    // The baseline of the request's session, workflow and flag: set by the baseline cell,
    // read by the others.
    void set_baseline(const nlohmann::json &request, Baseline value) {
        const std::lock_guard<std::mutex> lock(mutex_);
        baselines_[subject_of(request)] = std::move(value);
    }
    std::optional<Baseline> baseline(const nlohmann::json &request) {
        const std::lock_guard<std::mutex> lock(mutex_);
        const auto found = baselines_.find(subject_of(request));
        return found == baselines_.end() ? std::nullopt : std::optional<Baseline>(found->second);
    }

  private:
    using Subject = std::tuple<int64_t, std::string, std::string>;
    using Cell = std::tuple<Subject, std::string>;

    static Subject subject_of(const nlohmann::json &request) {
        return {request.value("session", int64_t{0}), request.value("workflow", ""),
                request.value("flag", "on")};
    }
    static Cell cell_of(const nlohmann::json &request) {
        return {subject_of(request), request.value("scenario", "")};
    }

    std::mutex mutex_;
    std::map<Cell, Tally> open_;
    std::map<Subject, Baseline> baselines_;
};

}  // namespace sbx::support
