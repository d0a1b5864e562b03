// A scratch directory with a settings file, for tests that drive the real binary, and a
// read-only view of the SQLite file it writes.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "command.hpp"
#include "reachable_by_others.hpp"
#include "wait.hpp"

namespace sbx::test {

class CliTest : public ::testing::Test {
  protected:
    // Who runs the binary: only this process's user, or, when the test runs as root, other
    // users too (setpriv), who must reach the binary and the scratch dir (ReachableByOthers:
    // a checkout under a private home hides both from them).
    enum class RunBy { self, others_too };
    CliTest() = default;
    explicit CliTest(RunBy run_by) : run_by_(run_by) {}
    void SetUp() override;
    void TearDown() override;
    // Writes settings.yaml into the scratch dir and returns its path.
    std::string write_settings(const std::string &yaml);
    std::string write_file(const std::string &name, const std::string &content);
    // <binary> --config <settings> --data-dir <dir>/data ARGS...
    CommandResult runner(const std::vector<std::string> &args);
    // The same with TMPDIR <dir>/tmp and HOME <dir>; with `unprivileged`, as nobody (setpriv)
    // when the test runs as root, which a fixture of RunBy::others_too may ask.
    CommandResult runner_as(bool unprivileged, const std::vector<std::string> &args);
    // When the test runs as root, `path` becomes nobody's (uid and gid 65534), the user
    // runner_as(true, ...) runs as.
    static void give_to_nobody(const std::string &path);
    // Runs one SQL query on <dir>/data/metrics.db; rows of columns as text.
    std::vector<std::vector<std::string>> query(const std::string &sql);
    // `columns` over the steps `s` (json_extract(s.result, '$.error'), s.status, ...) of the
    // runs with their scenario's fault on (flag 'on').
    std::vector<std::vector<std::string>> on_steps(const std::string &columns);
    std::string db_path() const { return dir_ + "/data/metrics.db"; }
    // Polls the database until it holds at least `count` runs or `timeout` passes;
    // returns the last count seen.
    int64_t wait_for_runs(int64_t count, std::chrono::seconds timeout);
    // A printed `sandbox-runner ...` line as a user pastes it into a shell, run by /bin/sh in
    // `folder`: the built binary stands for `sandbox-runner` (quoted: the build may be under
    // a path with a space). A line that does not start with `sandbox-runner ` fails the test.
    CommandResult paste(const std::string &line, const std::string &folder);

    std::string dir_;
    std::string settings_;
    // The built sandbox-runner, as every user who runs it in this test reaches it.
    std::string binary_;

  private:
    RunBy run_by_ = RunBy::self;
    std::unique_ptr<ReachableByOthers> reachable_;
};

}  // namespace sbx::test
