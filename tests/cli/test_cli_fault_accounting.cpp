// A verdict rests on faults that really happened, through the real binary, the built-in
// injectors, a third-party injector built with the SDK alone, real processes and a real
// metrics.db: every scenario that reads pass or fail had its faults applied, every other one
// is n/a with its reason; an injector that fails every run leaves its scenario inconclusive
// (exit 1); a missing program stops the command before any run (exit 2); a workflow that
// never works is broken (exit 1).
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_fixture.hpp"

namespace {

using nlohmann::json;

class FaultAccounting : public sbx::test::CliTest {
  protected:
    // Builds a third-party injector from `source` with the SDK alone, as authors do, into
    // <dir>/plugins/<id>.so; returns the folder.
    std::string build_injector(const std::string &source, const std::string &id) {
        std::string plugins = dir_ + "/plugins";
        std::filesystem::create_directories(plugins);
        const std::string exports =
            std::string("-Wl,--version-script=") + SBX_SDK_INCLUDE + "/../cmake/sbx_plugin.map";
        const auto build = sbx::test::run_command({SBX_CXX, "-std=c++17", "-shared", "-fPIC",
                                                   "-fvisibility=hidden", "-Wall", "-Werror", "-I",
                                                   SBX_SDK_INCLUDE, exports, "-Wl,-z,defs", source,
                                                   "-o", plugins + "/" + id + ".so"});
        EXPECT_EQ(build.exit_code, 0) << build.err;
        return plugins;
    }
    // `run-scenarios t --all-scenarios --json`; the exit code must agree with the verdict:
    // 1 exactly when the workflow is broken or a scenario inconclusive.
    json all_scenarios(const std::string &workflow = "t") {
        const auto result =
            runner({"run-scenarios", workflow, "--all-scenarios", "--seed", "3", "--json"});
        json summary = json::parse(result.out, nullptr, false);
        EXPECT_FALSE(summary.is_discarded()) << result.out << result.err;
        if (summary.is_discarded()) {
            return json::object();
        }
        const bool unfinished = summary["status"] == "broken" || !summary["inconclusive"].empty();
        EXPECT_EQ(result.exit_code, unfinished ? 1 : 0) << result.err;
        return summary;
    }
    // Every scenario reads pass or fail only with faults applied (normal has none to apply;
    // the robustness scenarios' faults are their inputs), n/a only with a reason.
    static void expect_verdicts_rest_on_applied_faults(const json &summary) {
        for (const auto &[name, scenario] : summary["scenarios"].items()) {
            SCOPED_TRACE(name + ": " + scenario.dump());
            const std::string result = scenario["result"];
            if (result == "pass" || result == "fail") {
                if (name != "normal" && !scenario["robustness"].get<bool>()) {
                    EXPECT_FALSE(scenario["injected"].get<std::string>().empty());
                }
            } else if (result == "n/a") {
                EXPECT_FALSE(scenario["not_applicable"].get<std::string>().empty());
            } else {
                EXPECT_EQ(result, "inconclusive");
                EXPECT_FALSE(scenario["inconclusive"].get<std::string>().empty());
            }
        }
    }
};

TEST_F(FaultAccounting, TrueUnderEveryBuiltInScenarioIsJudgedOnlyWhereItsFaultsHappened) {
    // A user's own minimal settings: no injectors: key, so every built-in injector acts.
    write_settings("workflows:\n  - name: t\n    steps: [{run: [/bin/true]}]\n");
    const json summary = all_scenarios();
    expect_verdicts_rest_on_applied_faults(summary);
    const auto &s = summary["scenarios"];
    EXPECT_EQ(s["normal"]["result"], "pass");
    EXPECT_EQ(s["concurrency_spike"]["result"], "pass");
    EXPECT_NE(s["concurrency_spike"]["injected"].get<std::string>().find(
                  "8 copies at once in 13/13 runs"),
              std::string::npos)
        << s["concurrency_spike"].dump();
    EXPECT_NE(
        s["concurrency_spike"]["injected"].get<std::string>().find("(concurrency_spike) in 13/13"),
        std::string::npos)
        << "the thread burst of the injector nobody listed";
    for (const char *name : {"hostile_input", "schema_drift", "flaky_upstream"}) {
        EXPECT_EQ(s[name]["result"], "n/a") << name;
    }
    // Nothing to invalidate, no upstream to corrupt: no chaos happened.
    EXPECT_EQ(s["chaotic_failure"]["result"], "n/a");
    const std::string chaos = s["chaotic_failure"]["not_applicable"];
    EXPECT_NE(chaos.find("broken_auth: no credentials to invalidate"), std::string::npos) << chaos;
    EXPECT_NE(chaos.find("CORRUPT_PAYLOAD: the fault_proxy injector did not act on it (the "
                         "workflow declares no upstreams: or services:)"),
              std::string::npos)
        << chaos;
    // Latency needs the network injector, in the default list: applied, or (where this
    // machine cannot make a network namespace) an inconclusive error, never a silent pass.
    const std::string latency = s["high_latency"]["result"];
    if (latency == "inconclusive") {
        EXPECT_NE(s["high_latency"]["inconclusive"].get<std::string>().find("network"),
                  std::string::npos);
    } else {
        const std::string injected = s["high_latency"]["injected"];
        EXPECT_NE(injected.find("latency 500 ms ("), std::string::npos) << injected;
        EXPECT_NE(injected.find("(network) in 13/13 runs"), std::string::npos) << injected;
    }
    // The limits count only as the executor held them.
    if (s["resource_strain"]["result"] != "n/a") {
        EXPECT_NE(s["resource_strain"]["injected"].get<std::string>().find("limit "),
                  std::string::npos);
    }
    // Each run's record says what it got.
    EXPECT_EQ(query("SELECT count(*) FROM metrics m JOIN runs r ON r.id = m.run_id JOIN presets "
                    "p ON p.id = r.preset_id WHERE p.name = 'concurrency_spike' AND r.flag = "
                    "'on' AND m.name = 'faults_applied.copies' AND m.value = 1")[0][0],
              "13");
}

TEST_F(FaultAccounting, AnUpstreamClientIsJudgedOnlyWhereItsFaultsHappened) {
    // A real HTTP service and a client that fetches from it once per run. Two runs per fault
    // cell, not 13: each starts the service, and the first two already meet the potent faults.
    write_settings(R"yaml(robustness_repetitions: 2
workflows:
  - name: web
    services:
      - {name: api, run: [python3, -m, http.server, "{{port}}", --bind, 127.0.0.1], ready: {http: /}}
    steps:
      - run: [python3, -c, "import os, urllib.request; urllib.request.urlopen('http://' + os.environ['SANDBOX_UPSTREAM_API'] + '/', timeout=20).read()"]
)yaml");
    const json summary = all_scenarios("web");
    expect_verdicts_rest_on_applied_faults(summary);
    const auto &s = summary["scenarios"];
    EXPECT_EQ(s["normal"]["result"], "pass") << s["normal"].dump();
    // The client made its request through the proxy: the API latency met it.
    if (s["flaky_upstream"]["result"] != "inconclusive") {
        EXPECT_NE(s["flaky_upstream"]["injected"].get<std::string>().find("API latency 500 ms"),
                  std::string::npos)
            << s["flaky_upstream"].dump();
    }
}

TEST_F(FaultAccounting, AnInjectorThatFailsEveryRunMakesItsScenarioInconclusive) {
    const std::string plugins = build_injector(SBX_FAILING_INJECTOR, "failing_setup");
    write_settings(R"(injectors: [failing_setup]
sandbox_fault_reruns: 1
scenarios:
  - {name: normal}
  - {name: shaky, preset: {FAILING_SETUP: "1"}}
workflows:
  - name: t
    steps: [{run: [/bin/true]}]
)");
    const auto result = runner({"--plugin-dir", plugins, "run-scenarios", "t", "--seed", "1"});
    EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
    EXPECT_NE(result.out.find("status: inconclusive"), std::string::npos) << result.out;
    const auto line = result.out.find("shaky: inconclusive (");
    ASSERT_NE(line, std::string::npos) << result.out;
    EXPECT_NE(result.out.find("failing_setup", line), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("port 7 is taken"), std::string::npos) << result.out;
    EXPECT_NE(result.err.find("shaky is inconclusive"), std::string::npos) << result.err;
    EXPECT_EQ(query("SELECT scenario, failed, worst, inconclusive IS NOT NULL FROM "
                    "scenario_scores ORDER BY position"),
              (std::vector<std::vector<std::string>>{{"normal", "0", "1", "0"},
                                                     {"shaky", "0", "0", "1"}}));
    EXPECT_EQ(query("SELECT p.name, c.flag, c.runs, c.passed, c.errored_runs FROM cells c JOIN "
                    "presets p ON p.id = c.preset_id ORDER BY p.name, c.flag"),
              (std::vector<std::vector<std::string>>{{"normal", "off", "1", "1", "0"},
                                                     {"normal", "on", "1", "1", "0"},
                                                     {"shaky", "off", "1", "0", "1"},
                                                     {"shaky", "on", "1", "0", "1"}}));
    // The JUnit report says error, not failure, and is never green.
    const auto junit = runner({"report", "--format", "junit"});
    EXPECT_NE(junit.out.find("errors=\"1\""), std::string::npos) << junit.out << junit.err;
    EXPECT_NE(junit.out.find("<error message=\"inconclusive: "), std::string::npos) << junit.out;
}

TEST_F(FaultAccounting, AMissingProgramStopsTheCommandBeforeAnyRun) {
    write_settings(R"(workflows:
  - name: t
    steps: [{name: fetch, run: [./no-such-tool, --fetch]}]
  - name: u
    steps: [{name: fetch, run: [no-such-tool-anywhere]}]
)");
    const auto relative = runner({"run-scenarios", "t"});
    EXPECT_EQ(relative.exit_code, 2) << relative.out << relative.err;
    EXPECT_NE(relative.err.find("settings.yaml:3:"), std::string::npos) << relative.err;
    EXPECT_NE(relative.err.find("step 'fetch' of workflow 't' runs './no-such-tool'"),
              std::string::npos)
        << relative.err;
    EXPECT_NE(relative.err.find("/no-such-tool is no program to run: it does not exist"),
              std::string::npos)
        << relative.err;
    EXPECT_EQ(relative.err.find("user namespace"), std::string::npos) << relative.err;
    const auto bare = runner({"run", "--workflow", "u"});
    EXPECT_EQ(bare.exit_code, 2) << bare.err;
    EXPECT_NE(bare.err.find("no executable of that name is on the target's PATH"),
              std::string::npos)
        << bare.err;
    EXPECT_FALSE(std::filesystem::exists(db_path()) &&
                 query("SELECT count(*) FROM runs")[0][0] != "0")
        << "nothing ran";
}

TEST_F(FaultAccounting, AWorkflowThatNeverWorksIsBrokenAndNoFaultIsBlamed) {
    write_settings(R"(workflows:
  - name: t
    steps: [{name: fetch, run: [/bin/sh, -c, "echo 'curl: (7) Failed to connect' >&2; exit 7"]}]
)");
    const auto result = runner({"run-scenarios", "t", "--seed", "1"});
    EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
    EXPECT_EQ(result.out.find("t is broken: every run of normal failed (1 of 1): step 'fetch': "
                              "exit code 7; stderr: curl: (7) Failed to connect"),
              result.out.find('\n') + 2)
        << "the first lines after the header say it:\n"
        << result.out;
    EXPECT_NE(result.out.find("status: broken"), std::string::npos) << result.out;
    EXPECT_EQ(result.out.find("<== WORST"), std::string::npos) << result.out;
    EXPECT_EQ(result.out.find("hardening tips"), std::string::npos) << result.out;
    EXPECT_EQ(result.out.find("broken by"), std::string::npos) << result.out;
    EXPECT_NE(result.err.find("status is 'broken'"), std::string::npos) << result.err;
}

TEST_F(FaultAccounting, AFaultNoLoadedPluginMakesIsRefusedInAUsersPresetAndNotApplicableBuiltIn) {
    write_settings(R"(injectors: []
scenarios:
  - {name: normal}
  - {name: slow_net, preset: {NETWORK_LATENCY_MS: 50}}
workflows:
  - name: t
    steps: [{run: [/bin/true]}]
)");
    const auto refused = runner({"run-scenarios", "t"});
    EXPECT_EQ(refused.exit_code, 2) << refused.err;
    EXPECT_NE(refused.err.find("preset 'slow_net' asks for NETWORK_LATENCY_MS, but no loaded "
                               "injector claims that fault: the built-in 'network' injector "
                               "makes it"),
              std::string::npos)
        << refused.err;
    EXPECT_FALSE(std::filesystem::exists(db_path()) &&
                 query("SELECT count(*) FROM runs")[0][0] != "0");

    write_settings(R"(injectors: []
scenarios:
  - {name: normal}
  - {name: high_latency}
workflows:
  - name: t
    steps: [{run: [/bin/true]}]
)");
    const auto built_in = runner({"run-scenarios", "t", "--json"});
    EXPECT_EQ(built_in.exit_code, 0) << built_in.err;
    const json summary = json::parse(built_in.out);
    EXPECT_EQ(summary["scenarios"]["high_latency"]["result"], "n/a");
    EXPECT_NE(summary["scenarios"]["high_latency"]["not_applicable"].get<std::string>().find(
                  "NETWORK_LATENCY_MS: no loaded plugin acted on it (the built-in network "
                  "injector does"),
              std::string::npos)
        << summary["scenarios"]["high_latency"].dump();
}

// The claims come from the plugins, not a list of the built-in ones: a third-party injector
// that claims NETWORK_LATENCY_MS makes it in the built-in's stead, and one that claims
// nothing of the preset does not let the fault through.
TEST_F(FaultAccounting, AThirdPartyInjectorThatClaimsAFaultMakesItAndOneThatDoesNotIsNoExcuse) {
    const std::string plugins = build_injector(SBX_LATENCY_CLAIMING_INJECTOR, "own_latency");
    build_injector(SBX_FAILING_INJECTOR, "failing_setup");
    const std::string scenarios = R"(
scenarios:
  - {name: normal}
  - {name: slow_net, preset: {NETWORK_LATENCY_MS: 50}}
workflows:
  - name: t
    steps: [{run: [/bin/sh, -c, 'test "$SCENARIO_NAME" != slow_net || test "$SLOW_BY_MS" = 50']}]
)";
    write_settings("injectors: [own_latency]" + scenarios);
    const auto claimed =
        runner({"--plugin-dir", plugins, "run-scenarios", "t", "--seed", "1", "--json"});
    ASSERT_EQ(claimed.exit_code, 0) << claimed.out << claimed.err;
    const json summary = json::parse(claimed.out);
    EXPECT_EQ(summary["scenarios"]["slow_net"]["result"], "pass") << summary.dump();
    EXPECT_NE(summary["scenarios"]["slow_net"]["injected"].get<std::string>().find(
                  "latency 50 ms, its own way"),
              std::string::npos)
        << summary["scenarios"]["slow_net"].dump();

    write_settings("injectors: [failing_setup]" + scenarios);
    const auto refused = runner({"--plugin-dir", plugins, "run-scenarios", "t", "--seed", "1"});
    EXPECT_EQ(refused.exit_code, 2) << refused.out << refused.err;
    EXPECT_NE(refused.err.find("preset 'slow_net' asks for NETWORK_LATENCY_MS, but no loaded "
                               "injector claims that fault"),
              std::string::npos)
        << refused.err;
}

// An injector whose probe says it stays idle under a preset is not asked again by that
// preset's runs; under a preset where it acts, every run asks it.
TEST_F(FaultAccounting, AnInjectorIdleUnderAPresetIsNotAskedByItsRuns) {
    const std::string plugins = build_injector(SBX_COUNTING_INJECTOR, "counting");
    const std::string log = dir_ + "/prepares.log";
    write_settings(R"(injectors: [counting]
plugins: {counting: {log: ")" +
                   log + R"("}}
scenarios:
  - {name: normal}
  - {name: counted, preset: {COUNTED: "1"}}
workflows:
  - name: t
    steps: [{run: [/bin/true]}]
)");
    const auto result = runner(
        {"--plugin-dir", plugins, "run-scenarios", "t", "--seed", "1", "--repetitions", "3"});
    ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
    std::map<std::string, int> asked;
    std::ifstream lines(log);
    for (std::string line; std::getline(lines, line);) {
        ++asked[line];
    }
    const auto times = [&](const std::string &line) {
        const auto found = asked.find(line);
        return found == asked.end() ? 0 : found->second;
    };
    EXPECT_EQ(times("probe normal"), 1);
    EXPECT_EQ(times("run normal"), 0) << "an idle injector was asked by a run";
    EXPECT_EQ(times("probe counted"), 1);
    // At least: a run the sandbox failed is run again (sandbox_fault_reruns), asking again.
    EXPECT_GE(times("run counted"), 6) << "each run (3 on, 3 off) of the preset it acts under "
                                          "asks it";
    EXPECT_EQ(asked.size(), 3U) << result.out;
}

TEST_F(FaultAccounting, EveryUpstreamIsNamedToTheTargetWhateverTheInjectors) {
    write_settings(R"(injectors: []
presets: [{SCENARIO_NAME: normal}]
workflows:
  - name: t
    upstreams: [{name: api, listen: "127.0.0.1:0", target: "127.0.0.1:9"}]
    steps: [{run: [/bin/sh, -c, 'test "$SANDBOX_UPSTREAM_API" = 127.0.0.1:9']}]
)");
    const auto result = runner({"run", "--workflow", "t"});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(query("SELECT passed FROM runs"), (std::vector<std::vector<std::string>>{{"1"}}))
        << result.out;
}

}  // namespace

namespace {

// A client of a real HTTP service that makes one request and never retries, and its robust
// twin that tries three times: under flaky_upstream at the default repetitions (one run per
// cell) the first connection of the first run is reset, so the fragile client fails and
// the robust one passes; each is told apart in its first run, not by luck.
class FaultPotency : public sbx::test::CliTest {
  protected:
    std::string client(int attempts) {
        return "import os, sys, urllib.request\n"
               "url = 'http://' + os.environ['SANDBOX_UPSTREAM_API'] + '/'\n"
               "for attempt in range(" +
               std::to_string(attempts) +
               "):\n"
               "    try:\n"
               "        urllib.request.urlopen(url, timeout=20).read()\n"
               "        sys.exit(0)\n"
               "    except Exception as error:\n"
               "        print('attempt', attempt, error, file=sys.stderr)\n"
               "sys.exit(1)\n";
    }
    json scenario(const std::string &scenario_name, int attempts) {
        write_file("client.py", client(attempts));
        write_settings(R"yaml(scenarios: [{name: normal}, {name: )yaml" + scenario_name +
                       R"yaml(}]
workflows:
  - name: web
    services:
      - {name: api, run: [python3, -m, http.server, "{{port}}", --bind, 127.0.0.1], ready: {http: /}}
    steps:
      - run: [python3, )yaml" +
                       dir_ + R"yaml(/client.py]
)yaml");
        const auto result = runner({"run-scenarios", "web", "--seed", "5", "--json"});
        EXPECT_EQ(result.exit_code, 0) << result.err;
        const json summary = json::parse(result.out, nullptr, false);
        EXPECT_FALSE(summary.is_discarded()) << result.out << result.err;
        return summary.is_discarded() ? json::object() : summary["scenarios"][scenario_name];
    }
};

TEST_F(FaultPotency, AClientThatNeverRetriesFailsFlakyUpstreamInItsFirstRunAndItsTwinPasses) {
    const json fragile = scenario("flaky_upstream", 1);
    EXPECT_EQ(fragile["result"], "fail") << fragile.dump();
    EXPECT_NE(fragile["injected"].get<std::string>().find("reset 1 of 1 connection(s)"),
              std::string::npos)
        << fragile.dump();
    const json robust = scenario("flaky_upstream", 3);
    EXPECT_EQ(robust["result"], "pass") << robust.dump();
    EXPECT_NE(robust["injected"].get<std::string>().find("reset 1 of 2 connection(s)"),
              std::string::npos)
        << robust.dump();
}

TEST_F(FaultPotency, AClientThatTrustsItsFirstReplyFailsChaoticFailureAndItsTwinPasses) {
    const json fragile = scenario("chaotic_failure", 1);
    EXPECT_EQ(fragile["result"], "fail") << fragile.dump();
    EXPECT_NE(fragile["injected"].get<std::string>().find("corrupted "), std::string::npos)
        << fragile.dump();
    const json robust = scenario("chaotic_failure", 3);
    EXPECT_EQ(robust["result"], "pass") << robust.dump();
}

}  // namespace
