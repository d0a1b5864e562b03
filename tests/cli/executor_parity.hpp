// The cross-executor check the docker and qemu CLI tests share: one small workflow run as a
// scenario matrix under `local` and under another executor must give the same verdicts and
// carry the ABI's result fields. What differs is only the executor line.
#pragma once

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "cli_fixture.hpp"

namespace sbx::test {

class ExecutorParityTest : public CliTest {
  protected:
    // The settings text of the small workflow (id 7) with `executor_line` (e.g.
    // "    executor: docker\n", or "" for the default executor).
    static std::string parity_settings(const std::string &executor_line);
    // run-scenarios of the small workflow (id 7) with `executor_line` (e.g.
    // "    executor: docker\n", or "" for the default), 2 repetitions, seed 3, as JSON.
    nlohmann::json scenarios(const std::string &executor_line);
    // The keys of every step result stored in the database.
    std::set<std::string> result_keys();
    // Same order, ROI, ROI delta, passed flags and worst scenario; a difference shows the
    // second executor's step results of the scenario (the data dir holds its runs).
    void expect_same_verdicts(const nlohmann::json &local, const nlohmann::json &other);
    // Each run of `scenario` in the database, with its step result, for failure messages.
    std::string steps_of(const std::string &scenario);
    // Every field of the ABI's result ("The result" in docs/abi.md) is among `keys`.
    static void expect_abi_result_keys(const std::set<std::string> &keys, const char *executor);

    // Three runs (one worker, so one pooled container or warm guest serves them all) of a
    // one-step workflow that counts what earlier runs left, files named barsmark-* in /tmp
    // and setsid'd sleeps, then leaves one of each: every run must find none. Afterwards no
    // such sleep runs on this machine. `executor_line` as for scenarios().
    void expect_every_run_starts_clean(const std::string &executor_line);
    // One run (`run`, the inputs from SANDBOX_INPUT_STUBS) of a one-step workflow that gets
    // a `$bytes` input (invalid UTF-8, a NUL, a newline, a quote, a backslash) on stdin, in a
    // file, in argv and env, and nested in a json slot's document, and prints each as hex:
    // every byte must arrive, the NUL left out only of argv and env (with a note). Returns
    // the run's id. `executor_line` as for scenarios(); `settings_head` goes before the
    // workflow (e.g. a plugins: section).
    std::string expect_raw_bytes_reach_the_target(const std::string &executor_line,
                                                  const std::string &settings_head = "");
    // What that workflow's target prints.
    static const char *raw_bytes_stdout();

    // Live processes on this machine (any namespace: /proc shows containers' and the
    // sandboxes' too) running the sleep that workflow leaves.
    std::vector<int> leftover_sleepers() const;
};

}  // namespace sbx::test
