// Third-party plugins run isolated: a crash, a hang or garbage on the channel is a one-line
// error naming the plugin, its file and the call; the host survives, records the command's
// outcome and leaves no process behind. A plugin whose constructor crashes is only refused.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "../cli/cli_fixture.hpp"
#include "plugins/plugin.hpp"
#include "processes.hpp"
#include "wait.hpp"

namespace {

constexpr const char *kMisbehaving = SBX_ISOLATION_FIXTURES "/predictor/misbehaving_predictor.so";
constexpr const char *kCtorCrash = SBX_CTOR_CRASH_FIXTURES "/predictor/ctor_crash.so";

class PluginIsolation : public sbx::test::CliTest {
  protected:
    // One run of /bin/true, then the forecasts: predict is the misbehaving plugin's call.
    std::string settings_for(const std::string &does, const std::string &plugin_host = "") {
        return write_settings(
            "predictor: misbehaving_predictor\nplugins:\n"
            "  misbehaving_predictor: {does: " +
            does + "}\n" + plugin_host +
            "presets: [{SCENARIO_NAME: calm}]\n"
            "workflows:\n  - name: wf\n    steps:\n      - run: [/bin/true]\n");
    }
    sbx::test::CommandResult run_with(const std::vector<std::string> &args) {
        std::vector<std::string> argv{"--plugin-dir", SBX_ISOLATION_FIXTURES};
        argv.insert(argv.end(), args.begin(), args.end());
        return runner(argv);
    }
    // Processes whose command line mentions `text` (the fixture's path): what a run left.
    static int processes_mentioning(const std::string &text) {
        return static_cast<int>(sbx::test::processes_whose_cmdline_contains(text).size());
    }
    std::string who() const {
        return "plugin misbehaving_predictor (" + std::string(kMisbehaving) + ")";
    }
};

// A predictor is optional: its crash disables it, and the command finishes (exit 0).
TEST_F(PluginIsolation, ASegfaultIsOneLineNamingPluginFileAndCallAndTheSessionIsRecorded) {
    settings_for("segv");
    const auto result = run_with({"run"});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.err.find(who() + " crashed with SIGSEGV in predict"), std::string::npos)
        << result.err;
    EXPECT_EQ(query("SELECT status FROM sessions")[0][0], "finished");
    EXPECT_EQ(query("SELECT count(*) FROM runs")[0][0], "1") << "the committed run is kept";
    EXPECT_EQ(processes_mentioning(kMisbehaving), 0);
}

TEST_F(PluginIsolation, AHangPastTheDeadlineIsKilledAndNamed) {
    settings_for("hang", "plugin_host: {call_deadline_s: 0.5}\n");
    const auto result = run_with({"run"});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.err.find(who() + " did not answer within 0.5 s (plugin_host.call_deadline_s); "
                                      "it was killed in predict"),
              std::string::npos)
        << result.err;
    EXPECT_EQ(query("SELECT failure FROM plugin_failures")[0][0], "hang");
    EXPECT_EQ(processes_mentioning(kMisbehaving), 0);
}

TEST_F(PluginIsolation, GarbageOnTheChannelIsNamed) {
    settings_for("garbage");
    const auto result = run_with({"run"});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(query("SELECT failure FROM plugin_failures")[0][0], "garbage");
    EXPECT_NE(result.err.find(who() + " wrote garbage on its channel"), std::string::npos)
        << result.err;
}

TEST_F(PluginIsolation, AnExitInACallIsNamedWithItsStatus) {
    settings_for("exit");
    const auto result = run_with({"run", "--strict-plugins"});
    EXPECT_EQ(result.exit_code, 3) << "--strict-plugins makes a disabled plugin exit 3\n"
                                   << result.err;
    EXPECT_NE(result.err.find(who() + " exited with status 7 in predict"), std::string::npos)
        << result.err;
}

TEST_F(PluginIsolation, OnCrashStopIsStillOneLineAndExit3) {
    settings_for("segv", "plugin_host: {on_crash: stop}\n");
    const auto result = run_with({"run"});
    EXPECT_EQ(result.exit_code, 3) << result.err;
    EXPECT_NE(
        result.err.find(who() + " crashed with SIGSEGV in predict (plugin_host.on_crash: stop)"),
        std::string::npos)
        << result.err;
}

TEST_F(PluginIsolation, WhatAPluginPrintsNeverReachesTheHostsStdout) {
    settings_for("answer");
    const auto result = run_with({"run", "--json"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(nlohmann::json::accept(result.out)) << result.out;
    EXPECT_NE(result.err.find("a plugin printing to stdout"), std::string::npos)
        << "it goes to stderr instead";
}

// An isolated plugin logs at the host's level: its debug lines reach --log-level debug, and
// are left out at the default level, as an in-process plugin's are.
TEST_F(PluginIsolation, APluginLogsAtTheHostsLogLevel) {
    settings_for("log");
    const auto debug = run_with({"--log-level", "debug", "run"});
    ASSERT_EQ(debug.exit_code, 0) << debug.err;
    EXPECT_NE(debug.err.find("a debug line from the predictor"), std::string::npos) << debug.err;
    const auto info = run_with({"run"});
    ASSERT_EQ(info.exit_code, 0) << info.err;
    EXPECT_EQ(info.err.find("a debug line from the predictor"), std::string::npos) << info.err;
    EXPECT_NE(info.err.find("a warning from the predictor"), std::string::npos) << info.err;
}

TEST_F(PluginIsolation, SigintDuringAHungCallEndsTheCommandWithExit3AndNothingLeft) {
    settings_for("hang", "plugin_host: {call_deadline_s: 0}\n");  // no deadline: only the signal
    const int pid =
        sbx::test::spawn_background({SBX_BINARY, "--config", settings_, "--data-dir",
                                     dir_ + "/data", "--plugin-dir", SBX_ISOLATION_FIXTURES, "run"},
                                    {}, dir_, dir_ + "/host.log");
    // The run is committed before the forecasts; then predict hangs in the child.
    ASSERT_GE(wait_for_runs(1, std::chrono::seconds(30)), 1);
    ASSERT_TRUE(sbx::test::wait_until([&] { return processes_mentioning(kMisbehaving) > 0; }));
    const auto interrupted_at = std::chrono::steady_clock::now();
    ASSERT_EQ(kill(pid, SIGINT), 0);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    const double stop_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - interrupted_at).count();
    std::printf("stopped %.3f s after SIGINT\n", stop_s);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 3);
    std::ifstream log(dir_ + "/host.log");
    const std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find(who() + " was stopped by a signal in predict"), std::string::npos) << text;
    EXPECT_EQ(query("SELECT status FROM sessions")[0][0], "interrupted");
    EXPECT_EQ(processes_mentioning(kMisbehaving), 0);
}

TEST_F(PluginIsolation, InProcessACrashEndsTheHostAndTheNextCommandMarksTheSessionCrashed) {
    settings_for("segv", "plugin_host: {isolation: in_process}\n");
    // A host that crashes leaves its workspace (as after SIGKILL): keep it in the test's folder.
    const auto crashed =
        sbx::test::run_command({SBX_BINARY, "--config", settings_, "--data-dir", dir_ + "/data",
                                "--plugin-dir", SBX_ISOLATION_FIXTURES, "run"},
                               {{"TMPDIR", dir_}});
    EXPECT_EQ(crashed.exit_code, 128 + SIGSEGV) << "in process, a plugin's crash is the host's";
    EXPECT_EQ(query("SELECT status FROM sessions")[0][0], "running");
    settings_for("answer");                // the next command that opens the data dir finds it
    const auto after = run_with({"run"});  // a text report: a forecast without an interval
    EXPECT_EQ(after.exit_code, 0) << after.err;
    EXPECT_EQ(query("SELECT status FROM sessions WHERE id = 1")[0][0], "crashed");
    EXPECT_NE(
        query("SELECT ended_note FROM sessions WHERE id = 1")[0][0].find("after 1 committed runs"),
        std::string::npos);
}

// In process a hung call cannot be cut short: the second signal ends the host at once.
TEST_F(PluginIsolation, InProcessASecondSigintEndsAHungCallAtOnce) {
    settings_for("hang", "plugin_host: {isolation: in_process}\n");
    const int pid =
        sbx::test::spawn_background({SBX_BINARY, "--config", settings_, "--data-dir",
                                     dir_ + "/data", "--plugin-dir", SBX_ISOLATION_FIXTURES, "run"},
                                    {{"TMPDIR", dir_}}, dir_, dir_ + "/host.log");
    ASSERT_GE(wait_for_runs(1, std::chrono::seconds(30)), 1);
    ASSERT_EQ(kill(pid, SIGINT), 0);
    const auto log_text = [&] {
        std::ifstream in(dir_ + "/host.log");
        return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    };
    // The first signal cannot stop the hung call; once the host has taken it, a second one.
    ASSERT_TRUE(sbx::test::wait_until(
        [&] { return log_text().find("a second Ctrl-C") != std::string::npos; }));
    const auto second_at = std::chrono::steady_clock::now();
    ASSERT_EQ(kill(pid, SIGINT), 0);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    std::printf(
        "ended %.3f s after the second SIGINT\n",
        std::chrono::duration<double>(std::chrono::steady_clock::now() - second_at).count());
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 3);
    EXPECT_NE(log_text().find("stopped hard on a second signal"), std::string::npos) << log_text();
}

TEST_F(PluginIsolation, ACrashingConstructorOnlyRefusesThatFile) {
    write_settings(
        "presets: [{SCENARIO_NAME: calm}]\n"
        "workflows:\n  - name: wf\n    steps:\n      - run: [/bin/true]\n");
    const auto listed = runner({"--plugin-dir", SBX_CTOR_CRASH_FIXTURES, "plugins", "list"});
    EXPECT_EQ(listed.exit_code, 0) << listed.err;
    EXPECT_NE(listed.out.find("refused: " + std::string(kCtorCrash) +
                              ": crashed with SIGSEGV while loading"),
              std::string::npos)
        << listed.out;
    EXPECT_NE(listed.out.find("local "), std::string::npos) << "the other plugins are listed";
    const auto run = runner({"--plugin-dir", SBX_CTOR_CRASH_FIXTURES, "run"});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    const auto verify = runner({"plugins", "verify", kCtorCrash});
    EXPECT_EQ(verify.exit_code, 2) << verify.err;
    EXPECT_NE(verify.err.find(std::string(kCtorCrash) + ": crashed with SIGSEGV while loading"),
              std::string::npos)
        << verify.err;
    EXPECT_EQ(verify.err.find("plugins verify"), std::string::npos)
        << "verify must not send its user to verify:\n"
        << verify.err;
    EXPECT_NE(verify.err.find("gdb --args"), std::string::npos) << verify.err;
    EXPECT_NE(verify.out.find("ok  exports"), std::string::npos)
        << "the checks that passed before the crash are kept:\n"
        << verify.out;
}

// Verify's smoke calls go beyond the sample: a plugin that answers the sample and crashes
// on anything else is caught by the fuzzed calls, named with the call and its seed, and the
// checks that passed stay.
TEST_F(PluginIsolation, VerifysFuzzedCallsFindACrashTheSampleMisses) {
    write_settings("{}\n");
    const auto verify = runner({"plugins", "verify", SBX_FUZZ_CRASH_FIXTURE});
    EXPECT_EQ(verify.exit_code, 2) << verify.err;
    // (The sample call's printf reaches stderr too: isolated plugins' stdout goes there.)
    EXPECT_NE(verify.err.find(std::string(SBX_FUZZ_CRASH_FIXTURE) +
                              ": smoke call predict (fuzzed, seed 1) {\""),
              std::string::npos)
        << verify.err;
    EXPECT_NE(verify.err.find("failed: plugin fuzz_crash (" + std::string(SBX_FUZZ_CRASH_FIXTURE) +
                              ") crashed with SIGSEGV in predict; it crashed in predict: "
                              "repeat the call with `sandbox-runner plugins call`"),
              std::string::npos)
        << verify.err;
    EXPECT_NE(verify.out.find("ok  config schema"), std::string::npos) << verify.out;
}

// The host-less harness: a request from the SDK's samples, one call, the checked answer.
TEST_F(PluginIsolation, PluginsCallFeedsOneRequestAndChecksTheAnswer) {
    write_settings("{}\n");  // the harness reads no settings; the fixture passes a file anyway
    const std::string requests = SBX_SOURCE_DIR "/sdk/requests/";
    const auto ok =
        runner({"plugins", "call", kMisbehaving, "--request", requests + "predictor.predict.json"});
    EXPECT_EQ(ok.exit_code, 0) << ok.err;
    EXPECT_NE(ok.out.find(R"("method":"misbehaving")"), std::string::npos) << ok.out;
    EXPECT_EQ(ok.out.find("a plugin printing to stdout"), std::string::npos)
        << "the plugin's own output is on stderr: " << ok.out;
    const auto crash =
        runner({"plugins", "call", kMisbehaving, "--request", requests + "predictor.predict.json",
                "--plugin-config", R"({"does": "segv"})"});
    EXPECT_EQ(crash.exit_code, 2) << crash.err;
    EXPECT_NE(crash.err.find(who() + " crashed with SIGSEGV in predict"), std::string::npos)
        << crash.err;
    const auto wrong = runner({"plugins", "call", kMisbehaving, "--request",
                               requests + "predictor.predict.json", "--call", "forecast"});
    EXPECT_EQ(wrong.exit_code, 2);
    EXPECT_NE(wrong.err.find("--call forecast is not a call"), std::string::npos) << wrong.err;
}

// The library level: a crashed instance is started again for the next call, up to
// plugin_host.restarts times; then its calls fail at once.
TEST(IsolatedInstance, RestartsACrashedPluginUpToTheLimit) {
    sbx::plugins::CallPolicy policy;
    policy.restarts = 2;
    const auto plugin = sbx::plugins::describe_plugin(kMisbehaving, policy);
    ASSERT_TRUE(plugin->isolated());
    const auto instance = plugin->create({{"does", "segv"}});
    for (int call = 1; call <= 3; ++call) {
        try {
            (void)instance->predict(R"({"series":[0.5]})");
            ADD_FAILURE() << "call " << call << " returned";
        } catch (const sbx::plugins::PluginCallError &e) {
            EXPECT_NE(std::string(e.what()).find("crashed with SIGSEGV in predict"),
                      std::string::npos)
                << "call " << call << ": " << e.what();
        }
    }
    try {
        (void)instance->predict(R"({"series":[0.5]})");
        ADD_FAILURE() << "a fourth start";
    } catch (const sbx::plugins::PluginCallError &e) {
        EXPECT_NE(std::string(e.what()).find("failed 3 times; not started again in predict "
                                             "(plugin_host.restarts: 2)"),
                  std::string::npos)
            << e.what();
    }
}

TEST(IsolatedInstance, AnswersLikeTheSamePluginInProcess) {
    const auto isolated = sbx::plugins::describe_plugin(kMisbehaving, {});
    const auto in_process = sbx::plugins::load_plugin(kMisbehaving);
    EXPECT_EQ(isolated->description(), in_process->description());
    const std::string request = R"({"series":[0.5,0.6]})";
    EXPECT_EQ(isolated->create(nlohmann::json::object())->predict(request),
              in_process->create(nlohmann::json::object())->predict(request));
}

}  // namespace
