// The worker pool of a matrix. The unit of work is one run, not one cell: a matrix has
// few cells (ten for run-scenarios) but many runs, and cell-sized work would leave most
// workers idle. Inputs are generated per cell up front; a cell that learns from coverage
// makes each later round's inputs when its round before ended (engine/cell_rounds.hpp).
// The worker that completes a cell's last run finishes the cell.
#include "engine/matrix_runner.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include <spdlog/spdlog.h>
#include <sbx/random.hpp>

#include "engine/cell_rounds.hpp"
#include "engine/run_queue.hpp"
#include "util/errors.hpp"
#include "util/hex_digest.hpp"

namespace sbx::engine {

std::vector<CellPlan> preset_cell_plans(const config::Workflow &workflow,
                                        const std::vector<presets::Preset> &presets,
                                        const CellOptions &options) {
    std::vector<CellPlan> plans;
    plans.reserve(presets.size());
    for (const auto &preset : presets) {
        plans.push_back({&workflow, preset, options});
    }
    return plans;
}
namespace {

// The flag a plan's runs and cell are recorded under.
const char *flag_of(const CellPlan &plan) {
    return plan.options.counterfactual ? "off" : "on";
}

// What a worker must plan exactly as the submitting host did, in plan order: each cell's
// workflow, preset, flag, number of runs and inputs. Hex of a 64-bit FNV-1a/SplitMix64 chain.
std::string plan_digest(const std::vector<CellPlan> &plans, const std::vector<CellWork> &work) {
    uint64_t digest = fnv1a64("");
    for (size_t i = 0; i < plans.size(); ++i) {
        const auto &plan = plans[i];
        const std::string cell = plan.workflow->name + '\n' + plan.preset.body.dump() + '\n' +
                                 flag_of(plan) + '\n' + std::to_string(plan.options.runs) + '\n' +
                                 work[i].input_sets.dump();
        digest = splitmix64(digest ^ fnv1a64(cell));
    }
    return util::hex16(digest);
}

}  // namespace

MatrixRunner::MatrixRunner(const MatrixContext &context, PluginSet &primary, unsigned workers)
    : context_(context), primary_(primary), workers_(workers == 0 ? 1 : workers) {}

std::vector<CellSummary> MatrixRunner::run(const std::vector<CellPlan> &plans) {
    std::vector<CellSummary> summaries(plans.size());
    WorkflowRunner primary_runner(primary_, context_.settings, context_.invocation_dir,
                                  context_.state_dir.string());
    CellRunner primary_cells(primary_, primary_runner, context_.store, context_.session_id);
    // A worker only queues its runs: the store's committer writes them (cell_runner.hpp).
    primary_cells.record_in_background();
    if (context_.remote != nullptr) {
        context_.remote->catch_up();
    }
    if (context_.recover && !recovery_) {
        recovery_.emplace(store::session_progress(context_.store, context_.session_id));
    }

    // Every cell's inputs first, in plan order, on this thread: the same seed then gives
    // the same inputs whatever the number of workers (and after an interruption). A cell
    // that learns from coverage has its later rounds' inputs made as its runs end.
    std::vector<CellWork> work(plans.size());
    std::vector<PlannedRun> tasks;  // every run made for this matrix, in plan order
    std::vector<std::vector<bool>> made_here(plans.size());  // per cell, per repetition
    std::vector<size_t> complete;                            // cells whose every run was kept
    std::vector<bool> restored(plans.size(), false);
    for (size_t i = 0; i < plans.size(); ++i) {
        const auto &plan = plans[i];
        work[i] = primary_cells.prepare(*plan.workflow, plan.preset, plan.options);
        RecoveredCell kept;
        if (recovery_) {
            kept = recovery_->take(plan.workflow->name, work[i].preset_id, flag_of(plan),
                                   plan.options.runs);
            for (auto &[repetition, result] : kept.runs) {
                work[i].results[static_cast<size_t>(repetition)] = std::move(result);
            }
        }
        if (kept.recorded != nullptr) {
            summaries[i] = primary_cells.restore(work[i], *kept.recorded);
            restored[i] = true;
            continue;
        }
        made_here[i].assign(static_cast<size_t>(plan.options.runs), false);
        int missing = 0;
        for (int repetition = 0; repetition < plan.options.runs; ++repetition) {
            const bool wanted =
                context_.shard == nullptr || context_.shard->runs.count({i, repetition}) != 0;
            if (kept.runs.count(repetition) == 0 && wanted) {
                tasks.emplace_back(i, repetition);
                made_here[i][static_cast<size_t>(repetition)] = true;
                ++missing;
            }
        }
        if (missing == 0 && context_.shard == nullptr) {
            complete.push_back(i);
        }
    }
    if (recovery_) {
        spdlog::info(
            "recovering session {}: kept {} recorded cells and {} committed runs; {} "
            "runs to go",
            context_.session_id, recovery_->kept_cells(), recovery_->kept_runs(), tasks.size());
    }
    if (context_.shard != nullptr && !context_.shard->plan_digest.empty()) {
        if (const std::string own = plan_digest(plans, work); own != context_.shard->plan_digest) {
            throw InputError(
                "this worker plans a different matrix than the submitting host did (plan " + own +
                ", the host's " + context_.shard->plan_digest +
                "): the settings, a preset file or a stub plugin changed since the matrix was "
                "submitted; put them back, or submit the matrix again");
        }
    }
    if (context_.observer != nullptr) {
        context_.observer->planned(tasks.size());
    }
    if (context_.remote != nullptr) {
        context_.remote->plan(plan_digest(plans, work));
        run_remotely(tasks, work, plans);
        for (size_t i = 0; i < plans.size(); ++i) {
            if (!restored[i]) {
                summaries[i] = primary_cells.finish(work[i]);
            }
        }
        return summaries;
    }
    std::vector<size_t> open;  // cells with runs to make here
    for (size_t i = 0; i < plans.size(); ++i) {
        if (restored[i]) {
            continue;
        }
        if (std::find(complete.begin(), complete.end(), i) != complete.end()) {
            summaries[i] = primary_cells.finish(work[i]);  // the host died before it recorded it
        } else {
            open.push_back(i);
        }
    }

    RunQueue queue(open.size());
    std::vector<std::optional<CellRounds>> rounds(plans.size());
    std::unique_ptr<std::atomic<int>[]> remaining(new std::atomic<int>[plans.size()]);
    // Queues the runs of `cell`'s current round that are made here; false when it has none.
    // The last round closes the cell. The count is set first: a worker may end a run of
    // the round before the last one is queued.
    const auto queue_round = [&](size_t cell) {
        const CellRounds &round = *rounds[cell];
        std::vector<int> repetitions;
        for (int repetition = round.begin(); repetition < round.end(); ++repetition) {
            if (made_here[cell][static_cast<size_t>(repetition)]) {
                repetitions.push_back(repetition);
            }
        }
        remaining[cell].store(static_cast<int>(repetitions.size()));
        for (const int repetition : repetitions) {
            queue.push({cell, repetition});
        }
        if (round.end() >= plans[cell].options.runs) {
            queue.cell_closed();
        }
        return !repetitions.empty();
    };
    // Once no run of `cell`'s round is left: its next round with runs to make is queued,
    // else the cell is finished (never by a worker of a shard: it holds a share at most).
    const auto next_round = [&](size_t cell, PluginSet &plugins, CellRunner &cells) {
        while (rounds[cell]->advance(plugins, context_.store, work[cell])) {
            if (queue_round(cell)) {
                return;
            }
        }
        if (context_.shard == nullptr) {
            summaries[cell] = cells.finish(work[cell]);
        }
    };
    for (const size_t cell : open) {
        rounds[cell].emplace(work[cell],
                             context_.shard == nullptr && learns_from_coverage(work[cell]));
        if (!queue_round(cell)) {
            next_round(cell, primary_, primary_cells);
        }
    }

    std::atomic<bool> stop{false};
    std::mutex error_mutex;
    std::exception_ptr first_error;
    const auto work_loop = [&](PluginSet &plugins, CellRunner &cells) {
        while (!stop.load()) {
            const auto task = queue.take();
            if (!task) {
                return;
            }
            const auto [cell, repetition] = *task;
            if (context_.observer != nullptr) {
                context_.observer->started(work[cell].workflow->name, work[cell].preset.name,
                                           work[cell].options.counterfactual ? "off" : "on");
            }
            cells.run_one(work[cell], repetition);
            if (context_.observer != nullptr) {
                context_.observer->finished(
                    work[cell].results[static_cast<size_t>(repetition)].passed);
            }
            if (remaining[cell].fetch_sub(1) == 1) {
                next_round(cell, plugins, cells);
            }
        }
    };
    // Called inside a catch block: keeps the first error and stops new runs starting.
    const auto remember_error = [&] {
        stop.store(true);
        queue.stop();
        std::lock_guard<std::mutex> guard(error_mutex);
        if (!first_error) {
            first_error = std::current_exception();
        }
    };

    const size_t wanted = std::min<size_t>(workers_, tasks.size());
    std::vector<std::thread> threads;
    threads.reserve(wanted > 1 ? wanted - 1 : 0);
    for (size_t i = 1; i < wanted; ++i) {
        threads.emplace_back([&] {
            try {
                // Each worker has its own instances: the ABI serializes calls per instance.
                PluginSet plugins(context_.settings, context_.registry);
                plugins.copy_idle_marks(primary_);
                WorkflowRunner runner(plugins, context_.settings, context_.invocation_dir,
                                      context_.state_dir.string());
                CellRunner cells(plugins, runner, context_.store, context_.session_id);
                cells.record_in_background();
                work_loop(plugins, cells);
            } catch (...) {
                remember_error();
            }
        });
    }
    try {
        work_loop(primary_, primary_cells);
    } catch (...) {
        remember_error();
    }
    for (auto &thread : threads) {
        thread.join();
    }
    if (first_error) {
        std::rethrow_exception(first_error);
    }
    if (context_.shard != nullptr) {
        throw ShardFinished("made " + std::to_string(tasks.size()) + " runs of the shard");
    }
    return summaries;
}

void MatrixRunner::run_remotely(const std::vector<PlannedRun> &tasks, std::vector<CellWork> &work,
                                const std::vector<CellPlan> &plans) {
    const auto missing_runs = [&](const std::vector<PlannedRun> &asked) {
        SessionRecovery held(store::session_progress(context_.store, context_.session_id));
        std::map<size_t, std::set<int>> kept;
        std::vector<PlannedRun> missing;
        for (const auto &[cell, repetition] : asked) {
            if (kept.count(cell) == 0) {
                const auto &plan = plans[cell];
                auto &reps = kept[cell];
                for (const auto &entry : held.take(plan.workflow->name, work[cell].preset_id,
                                                   flag_of(plan), plan.options.runs)
                                             .runs) {
                    reps.insert(entry.first);
                }
            }
            if (kept[cell].count(repetition) == 0) {
                missing.emplace_back(cell, repetition);
            }
        }
        return missing;
    };
    context_.remote->run(tasks, context_.observer, missing_runs);
    // What the session holds now: each cell with a run made elsewhere is filled from it.
    SessionRecovery merged(store::session_progress(context_.store, context_.session_id));
    std::set<size_t> cells;
    for (const auto &task : tasks) {
        cells.insert(task.first);
    }
    size_t missing = 0;
    for (const size_t cell : cells) {
        const auto &plan = plans[cell];
        auto kept = merged.take(plan.workflow->name, work[cell].preset_id, flag_of(plan),
                                plan.options.runs);
        for (auto &[repetition, result] : kept.runs) {
            work[cell].results[static_cast<size_t>(repetition)] = std::move(result);
        }
        missing += static_cast<size_t>(plan.options.runs) - kept.runs.size();
    }
    if (missing > 0) {
        throw EnvironmentError(std::to_string(missing) + " of " + std::to_string(tasks.size()) +
                               " runs were never made elsewhere; the session keeps the others, "
                               "and --recover makes the rest");
    }
}

}  // namespace sbx::engine
