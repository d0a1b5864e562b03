// Fault accounting, errors that are not verdicts, and the one-line why of a failure
// (engine/fault_accounting.hpp, engine/run_errors.hpp, engine/failure_detail.hpp).
#include <gtest/gtest.h>

#include "engine/failure_detail.hpp"
#include "engine/fault_accounting.hpp"
#include "engine/run_errors.hpp"

namespace sbx::engine {
namespace {

using nlohmann::json;

presets::Preset preset(json body) {
    return {body.value("SCENARIO_NAME", std::string("p")), std::move(body), "test"};
}

TEST(FaultAccounting, EnvironmentFaultsAreTheKeysAndModesSomePluginMakes) {
    EXPECT_TRUE(environment_faults(preset({{"SCENARIO_NAME", "normal"}})).empty());
    EXPECT_TRUE(environment_faults(preset({{"FAILURE_MODES", "hostile_input"},
                                           {"SANDBOX_STUB_STRATEGY", "hostile"}}))
                    .empty())
        << "inputs are the stub strategies' faults, not the environment's";
    EXPECT_EQ(environment_faults(preset({{"FAILURE_MODES", json::array({"concurrency_spike"})},
                                         {"CONCURRENCY_LEVEL", "8"},
                                         {"THREAD_BURST", 32},
                                         {"MY_OWN_KEY", "x"}})),
              (std::vector<std::string>{"CONCURRENCY_LEVEL", "THREAD_BURST", "concurrency_spike"}));
    EXPECT_TRUE(
        environment_faults(preset({{"NETWORK_LATENCY_MS", "0"}, {"CONCURRENCY_LEVEL", 1}})).empty())
        << "0 latency and one copy ask for nothing";
    EXPECT_EQ(built_in_handler("NETWORK_LATENCY_MS"), "network");
    EXPECT_EQ(built_in_handler("corrupt_payload"), "fault_proxy");
    EXPECT_EQ(built_in_handler("CPU_LIMIT"), "the executor");
    EXPECT_EQ(built_in_handler("MY_OWN_KEY"), "");
}

TEST(FaultAccounting, AnInjectorSaysWhatItAppliedOrWhyNotOrIsTakenAtItsWord) {
    FaultTally tally;
    add_injector_response(tally, "third_party", json{{"active", true}});
    add_injector_response(tally, "broken_auth",
                          json{{"applied", json::array()}, {"not_applied", "no credentials"}});
    add_injector_response(tally, "fault_proxy",
                          json{{"applied", json::array({"reset 1 of 3 connection(s)"})}});
    EXPECT_EQ(tally.applied,
              (std::map<std::string, std::string>{{"third_party", "active"},
                                                  {"fault_proxy", "reset 1 of 3 connection(s)"}}));
    EXPECT_EQ(tally.not_applied,
              (std::map<std::string, std::string>{{"broken_auth", "no credentials"}}));

    // A later step that got the fault counts for the run.
    FaultTally later;
    add_injector_response(later, "broken_auth", json{{"applied", json::array({"invalidated T"})}});
    tally.merge(later);
    EXPECT_EQ(tally.applied.at("broken_auth"), "invalidated T");
    EXPECT_EQ(tally.not_applied.count("broken_auth"), 0u);
}

TEST(FaultAccounting, ALimitCountsOnlyAsTheExecutorHeldIt) {
    const auto strain = preset({{"CPU_LIMIT", "0.5"}, {"DISK_LIMIT", "512Mi"}, {"PIDS_LIMIT", 0}});
    FaultTally held;
    add_limits(held, strain,
               json{{"enforcement", {{"cpu", "cgroup_v2"}, {"disk", "tmpfs"}}},
                    {"downgraded", json::array()}});
    EXPECT_EQ(held.applied,
              (std::map<std::string, std::string>{{"limit cpu", "limit cpu 0.5 (cgroup_v2)"},
                                                  {"limit disk", "limit disk 512Mi (tmpfs)"}}));
    EXPECT_TRUE(held.not_applied.empty());

    FaultTally downgraded;
    add_limits(
        downgraded, strain,
        json{{"enforcement", {{"cpu", "none (no cgroup could be made)"}, {"disk", "tmpfs"}}},
             {"downgraded",
              json::array({{{"limit", "cpu"}, {"got", "nothing: the run gets every core"}}})}});
    EXPECT_EQ(downgraded.applied.count("limit cpu"), 0u);
    EXPECT_EQ(downgraded.not_applied.at("limit cpu"),
              "cpu 0.5 was not enforced (nothing: the run gets every core)");
    EXPECT_EQ(downgraded.applied.count("limit disk"), 1u);

    FaultTally silent;
    add_limits(silent, strain, json{{"status", "OK"}});
    EXPECT_EQ(silent.applied.size(), 2u) << "an executor that does not say is taken at its word";
}

TEST(FaultAccounting, RunMetricsCountTheRunsThatGotEachFault) {
    FaultTally tally;
    tally.applied = {{"network", "active"}, {"limit cpu", "limit cpu 0.5 (cgroup_v1)"}};
    EXPECT_EQ(fault_metrics(tally),
              (std::map<std::string, double>{{"faults_applied", 1.0},
                                             {"faults_applied.limit cpu", 1.0},
                                             {"faults_applied.network", 1.0}}));
    EXPECT_EQ(fault_metrics(FaultTally{}),
              (std::map<std::string, double>{{"faults_applied", 0.0}}));
    // A cell's mean over 4 runs: the limit in every run, the network in 3.
    const std::map<std::string, double> means = {{"faults_applied", 1.0},
                                                 {"faults_applied.limit cpu", 1.0},
                                                 {"faults_applied.network", 0.75}};
    EXPECT_EQ(injected_text(means, 4, tally),
              "limit cpu 0.5 (cgroup_v1) in 4/4 runs; network in 3/4 runs");
    EXPECT_EQ(injected_text({{"faults_applied", 0.0}}, 4, {}), "");
}

TEST(FaultAccounting, WhatARunDidNotMeetBesideWhatItMetIsCountedToo) {
    // A one-request client through the proxy: latency on its connection, no reset.
    FaultTally tally;
    add_injector_response(
        tally, "fault_proxy",
        json{{"applied", json::array({"API latency 500 ms on 1 connection(s)"})},
             {"missed", json::array({"no connection reset of 1 (20-connection blocks, 1 made)"})}});
    EXPECT_EQ(tally.missed.at("fault_proxy"),
              "no connection reset of 1 (20-connection blocks, 1 made)");
    EXPECT_EQ(fault_metrics(tally),
              (std::map<std::string, double>{{"faults_applied", 1.0},
                                             {"faults_applied.fault_proxy", 1.0},
                                             {"faults_missed.fault_proxy", 1.0}}));
    // Over 13 runs: the latency met all, the reset missed 12.
    const std::map<std::string, double> means = {{"faults_applied", 1.0},
                                                 {"faults_applied.fault_proxy", 1.0},
                                                 {"faults_missed.fault_proxy", 12.0 / 13}};
    EXPECT_EQ(injected_text(means, 13, tally),
              "API latency 500 ms on 1 connection(s) (fault_proxy) in 13/13 runs; fault_proxy "
              "missed in 12/13 runs: no connection reset of 1 (20-connection blocks, 1 made)");
}

CellSummary cell(int runs, int passed, int errored, const std::string &error = "",
                 const std::string &detail = "") {
    CellSummary summary;
    summary.runs = runs;
    summary.passed = passed;
    summary.errored = errored;
    if (errored > 0) {
        summary.errors[error] = errored;
    }
    summary.failure_detail = detail;
    return summary;
}

TEST(RunErrors, ErrorsThatDominateOrHitBothCellsLeaveNoVerdict) {
    EXPECT_EQ(inconclusive_reason(cell(13, 12, 0), cell(13, 13, 0)), "");
    EXPECT_EQ(inconclusive_reason(cell(13, 10, 1, "port taken"), cell(13, 13, 0)), "")
        << "one error in 13 on-runs: the other 12 judge";
    EXPECT_EQ(inconclusive_reason(cell(13, 5, 7, "port taken"), cell(13, 13, 0)),
              "port taken (errors in 7 of 13 on-runs)");
    EXPECT_EQ(inconclusive_reason(cell(13, 12, 1, "port taken"), cell(13, 12, 1, "port taken")),
              "port taken (errors in 1 of 13 on-runs, 1 of 13 off-runs)");
    EXPECT_EQ(inconclusive_reason(cell(1, 0, 0), cell(1, 0, 1, "engine down")),
              "engine down (errors in 1 of 1 off-runs)");
}

TEST(RunErrors, OnlyANormalThatNeverPassesIsBroken) {
    EXPECT_EQ(broken_reason("normal", cell(3, 0, 0, "", "step 'a': exit code 1")),
              "every run of normal failed (3 of 3): step 'a': exit code 1");
    EXPECT_EQ(broken_reason("normal", cell(3, 1, 0)), "");
    EXPECT_EQ(broken_reason("normal", cell(3, 0, 3, "engine down")), "")
        << "errors are no verdict, broken or not";
    EXPECT_EQ(broken_reason("hostile_input", cell(3, 0, 0)), "");
    EXPECT_EQ(broken_reason("normal", cell(3, 0, 1, "engine down", "step 'a': exit code 1")),
              "every run of normal failed (2 of 2): step 'a': exit code 1");
}

TEST(FailureDetail, SaysHowTheTargetEndedAndItsLastStderrLines) {
    EXPECT_EQ(failure_detail("fetch",
                             json{{"status", "RE"},
                                  {"exit_code", 56},
                                  {"stderr", "  % Total\n\ncurl: (56) Connection reset by peer\n"}},
                             "status RE, expected OK"),
              "step 'fetch': exit code 56; stderr:   % Total | curl: (56) Connection reset by "
              "peer");
    EXPECT_EQ(failure_detail("get", json{{"status", "SG"}, {"signal", 11}, {"stderr", ""}}, ""),
              "step 'get': killed by signal 11 (SIGSEGV)");
    EXPECT_EQ(failure_detail("get", json{{"status", "TO"}, {"wall_s", 2.04}}, ""),
              "step 'get': timed out after 2.0 s");
    EXPECT_EQ(failure_detail("get", json{{"status", "OK"}, {"exit_code", 0}, {"stdout", "x"}},
                             "stdout lacks 'Ada'"),
              "step 'get': exit code 0 (stdout lacks 'Ada')");
    EXPECT_EQ(failure_detail("s", json{{"status", "XX"}, {"error", "cannot execute 'x'"}}, ""),
              "step 's': not run: cannot execute 'x'");
}

TEST(FailureDetail, AHostileStderrIsBoundedAndCannotSteerATerminal) {
    EXPECT_EQ(stderr_tail("one\ntwo\nthree\nfour\n", 3), "two | three | four");
    EXPECT_EQ(stderr_tail("\x1b[31mred\r\n", 3), "\\x1b[31mred");
    const std::string tail = stderr_tail(std::string(5000, 'a'), 1);
    EXPECT_EQ(tail.size(), 203u);
    EXPECT_EQ(tail.substr(200), "...");
    EXPECT_EQ(stderr_tail("", 3), "");
}

}  // namespace
}  // namespace sbx::engine
