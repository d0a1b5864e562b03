// `--on slurm` against the real daemons tools/start-slurm brings up (slurmctld, slurmd,
// munge): the matrix over a job array equals the same matrix made here; a task cancelled
// mid-matrix has its runs made again, each once; SIGINT of the submitting host cancels
// the array and leaves nothing in squeue, and --recover finishes the matrix.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_fixture.hpp"
#include "machine.hpp"

namespace sbx::test {
namespace {

using json = nlohmann::json;

// Passes except where the scenario names an input problem; SLEEP keeps runs in flight
// long enough to cancel one task, or the host, in the middle of the matrix. The robustness
// and fault scenarios run 3 times (not 13): enough runs to spread over both shards.
constexpr const char *kWorkflow = R"yaml(
robustness_repetitions: 3
slurm: {shards: 2, poll_interval_s: 0.2}
workflows:
  - name: small
    id: 7
    steps:
      - name: greet
        run: [/bin/sh, -c, 'sleep SLEEP; echo "hello $SCENARIO_NAME"; case "$SCENARIO_NAME" in hostile_input|schema_drift) exit 1;; esac']
        expect: {exit_code: 0}
)yaml";

std::string settings_with_sleep(const std::string &seconds) {
    std::string yaml = kWorkflow;
    yaml.replace(yaml.find("SLEEP"), 5, seconds);
    return yaml;
}

class SlurmCli : public CliTest {
  protected:
    void SetUp() override {
        CliTest::SetUp();
        const auto missing = first_missing_tool({"sbatch", "squeue", "scancel", "sinfo"});
        ASSERT_EQ(missing, "") << "Slurm's client commands are missing (" << missing
                               << "): run tools/install-deps and tools/start-slurm";
        const auto sinfo = run_command({"/usr/bin/env", "sinfo", "-h", "-o", "%T"});
        ASSERT_EQ(sinfo.exit_code, 0)
            << "no Slurm controller answers: run tools/start-slurm (" << sinfo.err << ")";
    }

    void TearDown() override {
        EXPECT_EQ(our_jobs(), "") << "jobs of this test are left in squeue";
        CliTest::TearDown();
    }

    // The jobs in squeue whose job folder is in this test's directory.
    std::string our_jobs() {
        const auto listed = run_command({"/usr/bin/env", "squeue", "-h", "-r", "-o", "%i %j %Z"});
        std::istringstream in(listed.out);
        std::string ours;
        for (std::string line; std::getline(in, line);) {
            if (line.find(" sbx-") != std::string::npos && line.find(dir_) != std::string::npos) {
                ours += line + "\n";
            }
        }
        return ours;
    }

    std::vector<std::string> host(const std::vector<std::string> &args) const {
        std::vector<std::string> argv = {SBX_BINARY, "--config", settings_, "--data-dir",
                                         dir_ + "/data"};
        argv.insert(argv.end(), args.begin(), args.end());
        return argv;
    }

    // Every (preset, flag, repetition) of the session's runs appears once.
    void expect_each_run_once(int64_t expected) {
        EXPECT_EQ(query("SELECT count(*) FROM runs")[0][0], std::to_string(expected));
        EXPECT_EQ(query("SELECT count(*) FROM (SELECT 1 FROM runs GROUP BY session_id, workflow, "
                        "preset_id, flag, repetition HAVING count(*) > 1)")[0][0],
                  "0")
            << "a run was recorded twice";
    }

    // Waits until a task of an array of this test runs; returns the array's job id.
    // The array job of this test with a task running ("" after 60 s without one), and
    // that task's index.
    std::string running_array(std::string *task = nullptr) {
        std::string job;
        wait_until(
            [&] {
                const auto listed = run_command(
                    {"/usr/bin/env", "squeue", "-h", "-r", "-t", "RUNNING", "-o", "%F %K %Z"});
                std::istringstream in(listed.out);
                for (std::string line; std::getline(in, line);) {
                    if (line.find(dir_) != std::string::npos) {
                        std::istringstream fields(line);
                        std::string index;
                        fields >> job >> index;
                        if (task != nullptr) {
                            *task = index;
                        }
                        return true;
                    }
                }
                return false;
            },
            std::chrono::seconds(60));
        return job;
    }
};

// Three cells at the table's level: ROI, delta and verdict of every scenario, the worst,
// the status; and the runs themselves, each once.
TEST_F(SlurmCli, AMatrixOverSlurmEqualsTheSameMatrixMadeHere) {
    write_settings(settings_with_sleep("0"));
    const auto local =
        run_command({SBX_BINARY, "--config", settings_, "--data-dir", dir_ + "/local",
                     "run-scenarios", "7", "--repetitions", "2", "--seed", "3", "--json"},
                    {}, dir_);
    ASSERT_EQ(local.exit_code, 0) << local.err;
    const auto slurm = runner(
        {"run-scenarios", "7", "--repetitions", "2", "--seed", "3", "--json", "--on", "slurm"});
    ASSERT_EQ(slurm.exit_code, 0) << slurm.err;
    const json l = json::parse(local.out);
    const json s = json::parse(slurm.out);
    ASSERT_EQ(l["order"], s["order"]);
    for (const auto &name : l["order"]) {
        SCOPED_TRACE(name.get<std::string>());
        const auto &a = l["scenarios"][name.get<std::string>()];
        const auto &b = s["scenarios"][name.get<std::string>()];
        EXPECT_DOUBLE_EQ(a["roi"].get<double>(), b["roi"].get<double>());
        EXPECT_DOUBLE_EQ(a["roi_delta"].get<double>(), b["roi_delta"].get<double>());
        EXPECT_EQ(a["passed"], b["passed"]);
    }
    EXPECT_EQ(l["worst_scenario"], s["worst_scenario"]);
    EXPECT_EQ(l["status"], s["status"]);
    EXPECT_NE(slurm.err.find("as Slurm job"), std::string::npos) << slurm.err;
    // 5 scenarios, on and off: normal 2 runs each; concurrency_spike, the two robustness
    // ones and flaky_upstream 3 each (robustness_repetitions, above --repetitions).
    expect_each_run_once(2 * 2 + 4 * 2 * 3);
    EXPECT_FALSE(std::filesystem::exists(dir_ + "/data/slurm"))
        << "the job folder is left after the matrix ended";
}

// A node that cannot hold a scenario's limit refuses its shard; the host, which does not
// run the targets, leaves that judgement to the nodes. When every task refused, the next
// attempt would too: the host stops instead of submitting the runs again. Here every node
// refuses: the executor holds no limit.
TEST_F(SlurmCli, ANodeThatCannotHoldALimitRefusesAndIsNotSubmittedAgain) {
    write_settings(std::string("plugin_dirs: [") + SBX_FIXTURE_PLUGIN_DIR + R"(]
executor: downgrading
slurm: {shards: 2, poll_interval_s: 0.2}
presets: [{SCENARIO_NAME: tight, MEMORY_LIMIT: 64m}]
workflows:
  - name: w
    steps: [{run: [/bin/true]}]
)");
    const auto here = runner({"run", "-w", "w", "--runs", "2", "--seed", "1"});
    EXPECT_EQ(here.exit_code, 2) << "the host judges itself when it runs the targets";
    EXPECT_NE(here.err.find("scenario tight: memory on executor downgrading"), std::string::npos)
        << here.err;

    const auto slurm = runner({"run", "-w", "w", "--runs", "2", "--seed", "1", "--on", "slurm"});
    EXPECT_EQ(slurm.exit_code, 2) << slurm.err;
    EXPECT_NE(slurm.err.find("every task refused its shard"), std::string::npos) << slurm.err;
    // Named as Slurm names the node (what sbatch --exclude takes), not by its hostname.
    auto node = run_command({"/usr/bin/env", "sinfo", "-h", "-N", "-o", "%N"}).out;
    node = node.substr(0, node.find('\n'));
    EXPECT_NE(
        slurm.err.find(", node " + node + ": a scenario asks for limits that cannot be enforced"),
        std::string::npos)
        << slurm.err;
    EXPECT_EQ(slurm.err.find("submitting them again"), std::string::npos)
        << "a refusal repeats; it was submitted again: " << slurm.err;
}

// `run` with generated presets: the worker draws the same presets from the same seed.
TEST_F(SlurmCli, RunOverSlurmEqualsRunHere) {
    write_settings(settings_with_sleep("0"));
    const auto local =
        run_command({SBX_BINARY, "--config", settings_, "--data-dir", dir_ + "/local", "run", "-w",
                     "7", "--runs", "3", "--seed", "5", "--json"},
                    {}, dir_);
    ASSERT_EQ(local.exit_code, 0) << local.err;
    const auto slurm =
        runner({"run", "-w", "7", "--runs", "3", "--seed", "5", "--json", "--on", "slurm"});
    ASSERT_EQ(slurm.exit_code, 0) << slurm.err;
    const json l = json::parse(local.out)["cells"];
    const json s = json::parse(slurm.out)["cells"];
    ASSERT_EQ(l.size(), s.size());
    for (size_t i = 0; i < l.size(); ++i) {
        SCOPED_TRACE(l[i]["preset"].get<std::string>());
        EXPECT_EQ(l[i]["preset"], s[i]["preset"]);
        EXPECT_EQ(l[i]["flag"], s[i]["flag"]);
        EXPECT_EQ(l[i]["passed"], s[i]["passed"]);
        EXPECT_DOUBLE_EQ(l[i]["roi"].get<double>(), s[i]["roi"].get<double>());
    }
    expect_each_run_once(static_cast<int64_t>(l.size()) * 3);
    const auto refused = runner({"run", "--all-workflows", "--on", "slurm"});
    EXPECT_EQ(refused.exit_code, 2);
    EXPECT_NE(refused.err.find("--on slurm makes one workflow's matrix"), std::string::npos)
        << refused.err;
}

TEST_F(SlurmCli, ACancelledTaskHasItsRunsMadeAgainEachOnce) {
    // Steps long enough that task 1 is still running when scancel reaches it, on a loaded
    // machine too (with 0.2 s steps it sometimes finished first).
    write_settings(settings_with_sleep("0.5"));
    const int pid = spawn_background(host({"run-scenarios", "7", "--seed", "3", "--on", "slurm"}),
                                     {{"TMPDIR", dir_}}, dir_, dir_ + "/host.log");
    // The task seen running, not a fixed one: on a loaded machine task 1 may have ended
    // before the first look at the queue.
    std::string task;
    const std::string job = running_array(&task);
    ASSERT_NE(job, "") << "no task of the array ran within 60 s";
    ASSERT_EQ(run_command({"/usr/bin/env", "scancel", job + "_" + task}).exit_code, 0);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    const auto log = run_command({"/bin/cat", dir_ + "/host.log"}).out;
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << log;
    EXPECT_NE(log.find("submitting them again"), std::string::npos) << log;
    EXPECT_NE(log.find("task " + task + " CANCELLED"), std::string::npos) << log;
    expect_each_run_once(2 + 4 * 2 * 3);
    EXPECT_EQ(query("SELECT status FROM sessions")[0][0], "finished");
}

TEST_F(SlurmCli, SigintCancelsTheArrayAndRecoverFinishesTheMatrix) {
    write_settings(settings_with_sleep("0.2"));
    const int pid = spawn_background(host({"run-scenarios", "7", "--seed", "3", "--on", "slurm"}),
                                     {{"TMPDIR", dir_}}, dir_, dir_ + "/host.log");
    ASSERT_NE(running_array(), "") << "no task of the array ran within 60 s";
    ASSERT_EQ(kill(pid, SIGINT), 0);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    const auto log = run_command({"/bin/cat", dir_ + "/host.log"}).out;
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 3) << log;
    EXPECT_NE(log.find("cancelled Slurm job"), std::string::npos) << log;
    EXPECT_EQ(our_jobs(), "") << "the array outlived the SIGINT";
    EXPECT_EQ(query("SELECT status FROM sessions")[0][0], "interrupted");
    const int64_t kept = std::stoll(query("SELECT count(*) FROM runs")[0][0]);

    const auto recovered = runner({"run-scenarios", "--recover"});
    ASSERT_EQ(recovered.exit_code, 0) << recovered.err;
    expect_each_run_once(2 + 4 * 2 * 3);
    EXPECT_GE(std::stoll(query("SELECT count(*) FROM runs")[0][0]), kept);
    EXPECT_EQ(query("SELECT status FROM sessions")[0][0], "finished");
}

// A SIGKILLed submitter leaves its array running: check-resources names it, purge-stale
// cancels it, and --recover merges what the array made meanwhile and makes the rest.
TEST_F(SlurmCli, ADeadSubmittersArrayIsFoundPurgedAndRecovered) {
    write_settings(settings_with_sleep("0.5"));
    const int pid = spawn_background(host({"run-scenarios", "7", "--seed", "3", "--on", "slurm"}),
                                     {{"TMPDIR", dir_}}, dir_, dir_ + "/host.log");
    const std::string job = running_array();
    ASSERT_NE(job, "") << "no task of the array ran within 60 s";
    ASSERT_EQ(kill(pid, SIGKILL), 0);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);

    const auto listed = runner({"check-resources"});
    EXPECT_EQ(listed.exit_code, 1) << listed.out << listed.err;
    EXPECT_NE(listed.out.find("left slurm: slurm job " + job), std::string::npos) << listed.out;
    const auto purged = runner({"purge-stale"});
    EXPECT_EQ(purged.exit_code, 0) << purged.err;
    EXPECT_NE(purged.out.find("removed slurm: slurm job " + job), std::string::npos) << purged.out;
    EXPECT_TRUE(wait_until([&] { return our_jobs().empty(); }, std::chrono::seconds(30)))
        << our_jobs();

    const auto recovered = runner({"run-scenarios", "--recover"});
    ASSERT_EQ(recovered.exit_code, 0) << recovered.err;
    expect_each_run_once(2 + 4 * 2 * 3);
}

}  // namespace
}  // namespace sbx::test
