// The qemu executor end to end through the real binary, real QEMU and the real guest: the
// same workflow gives the same ROI and result schema as under local, one boot serves a
// whole command, limits end runs as OOM and TO, presets with VM_SETTINGS route to it, boot
// failures are diagnosed, and a killed or stopped host leaves no guest running.
// Each boot costs about 6 s of TCG emulation, so every test boots at most once (the
// broken-boot test fails two short attempts).
// Needs qemu-system-x86_64 and the guest built with the plugin; fails, never skips, without.
#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>

#include <sbx/process_identity.hpp>
#include "executor_parity.hpp"
#include "processes.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string slurp(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Pids of live QEMU processes whose command line names `needle` (a test's scratch dir).
std::vector<int> qemu_processes_naming(const std::string &needle) {
    std::vector<int> found;
    for (sbx::test::LiveProcess &process : sbx::test::live_processes()) {
        std::replace(process.cmdline.begin(), process.cmdline.end(), '\0', ' ');
        if (process.cmdline.find("qemu-system") != std::string::npos &&
            process.cmdline.find(needle) != std::string::npos) {
            found.push_back(process.pid);
        }
    }
    return found;
}

// A killed QEMU is gone once its parent (or init) reaps it: poll briefly.
std::vector<int> qemu_left_after_polling(const std::string &needle) {
    std::vector<int> left;
    (void)sbx::test::wait_until([&] {
        left = qemu_processes_naming(needle);
        return left.empty();
    });
    return left;
}

class QemuCli : public sbx::test::ExecutorParityTest {
  protected:
    void SetUp() override {
        ExecutorParityTest::SetUp();
        const auto qemu =
            sbx::test::run_command({"/bin/sh", "-c", "command -v qemu-system-x86_64"});
        ASSERT_EQ(qemu.exit_code, 0)
            << "qemu-system-x86_64 is not in PATH; install qemu-system-x86 (tools/install-deps)";
        ASSERT_TRUE(fs::exists(std::string(SBX_QEMU_GUEST_DIR) + "/initrd.img") &&
                    fs::exists(std::string(SBX_QEMU_GUEST_DIR) + "/guest.json"))
            << "no guest initrd.img and guest.json in " SBX_QEMU_GUEST_DIR
               "; install linux-image-amd64, busybox-static and kmod (tools/install-deps), "
               "then build again (tools/build: every build runs tools/build-guest-initramfs)";
        tmp_ = dir_ + "/tmp";
        fs::create_directories(tmp_);
    }
    // The step results of the runs of the preset named `preset`, in run and step order.
    std::vector<json> results_of(const std::string &preset) {
        std::vector<json> results;
        for (const auto &row :
             query("SELECT s.result FROM runs r JOIN steps s ON s.run_id = r.id JOIN presets p "
                   "ON p.id = r.preset_id WHERE p.name = '" +
                   preset + "' ORDER BY r.id, s.position")) {
            results.push_back(json::parse(row[0]));
        }
        return results;
    }
    // sandbox-runner with TMPDIR in the scratch dir, so cleanup commands see only this
    // test's workspaces.
    sbx::test::CommandResult host(const std::vector<std::string> &args) {
        std::vector<std::string> argv = {SBX_BINARY, "--config", settings_, "--data-dir",
                                         dir_ + "/data"};
        argv.insert(argv.end(), args.begin(), args.end());
        return sbx::test::run_command(argv, {{"TMPDIR", tmp_}}, dir_);
    }
    int start_host(const std::string &runs) {
        return sbx::test::spawn_background({SBX_BINARY, "--config", settings_, "--data-dir",
                                            dir_ + "/data", "run", "--runs", runs},
                                           {{"TMPDIR", tmp_}}, dir_, dir_ + "/host.log");
    }
    std::string overlay_root() const { return dir_ + "/data/state/qemu"; }
    std::vector<std::string> overlay_folders() const {
        std::vector<std::string> folders;
        std::error_code error;
        for (fs::directory_iterator it(overlay_root(), error), end; !error && it != end;
             it.increment(error)) {
            if (it->path().filename().string().rfind("vm-", 0) == 0) {
                folders.push_back(it->path().string());
            }
        }
        std::sort(folders.begin(), folders.end());
        return folders;
    }
    json active_overlays() const {
        const std::string text = slurp(overlay_root() + "/active_overlays.json");
        return text.empty() ? json::object() : json::parse(text);
    }

    std::string tmp_;
};

// A workflow that keeps the host busy on one guest: a run every 0.3 s, for minutes.
constexpr const char *kSlowWorkflow = R"(
presets: [{SCENARIO_NAME: normal}]
workflows:
  - name: slow
    executor: qemu
    steps:
      - run: [/bin/sh, -c, "sleep 0.3; echo done"]
        expect: {stdout_contains: done}
)";

TEST_F(QemuCli, SameWorkflowSameRoiAndResultSchemaUnderLocalAndQemuOnOneBoot) {
    const json local = scenarios("    executor: local\n");
    const auto local_keys = result_keys();
    fs::remove_all(dir_ + "/data");
    const json qemu = scenarios("    executor: qemu\n");
    const auto qemu_keys = result_keys();

    expect_same_verdicts(local, qemu);
    expect_abi_result_keys(local_keys, "local");
    expect_abi_result_keys(qemu_keys, "qemu");
    EXPECT_EQ(qemu_keys.count("guest"), 1U);
    const auto executors = query("SELECT DISTINCT json_extract(result, '$.executor') FROM steps");
    ASSERT_EQ(executors.size(), 1U);
    EXPECT_EQ(executors[0][0], "qemu");
    // Every worker's instance shares the one guest of the plan: one boot for the command.
    const auto runs = query("SELECT count(*) FROM steps");
    const auto boots =
        query("SELECT count(*) FROM steps WHERE json_extract(result, '$.guest.booted') = 1");
    EXPECT_EQ(boots[0][0], "1") << "of " << runs[0][0] << " runs";
    const auto guests =
        query("SELECT count(DISTINCT json_extract(result, '$.guest.pid')) FROM steps");
    EXPECT_EQ(guests[0][0], "1");
    EXPECT_GT(std::stoi(runs[0][0]), 1);
    EXPECT_TRUE(qemu_processes_naming(dir_).empty()) << "a guest outlived its command";
}

TEST_F(QemuCli, MemoryHogIsOomAndSleeperTimesOutOnOneGuest) {
    // dd's 64 MiB buffer outgrows a 16 MiB cgroup; without a memory limit it fits, and the
    // sleep after it outlives TIMEOUT. The hog's TIMEOUT only bounds a failure.
    write_settings(R"(
presets:
  - {SCENARIO_NAME: hog, MEMORY_LIMIT: 16Mi, TIMEOUT: 20s}
  - {SCENARIO_NAME: sleeper, TIMEOUT: 500ms}
workflows:
  - name: limits
    executor: qemu
    steps:
      - run: [/bin/sh, -c, 'dd if=/dev/zero of=/dev/null bs=64M count=1 && sleep 30']
)");
    const auto result = host({"run", "--runs", "1"});
    EXPECT_NE(result.exit_code, 2) << result.err;

    const auto hog = results_of("hog");
    ASSERT_EQ(hog.size(), 1U) << result.out << result.err;
    EXPECT_EQ(hog[0]["status"], "OOM") << hog[0].dump();
    EXPECT_EQ(hog[0]["limit"], "memory") << hog[0].dump();
    const auto sleeper = results_of("sleeper");
    ASSERT_EQ(sleeper.size(), 1U);
    EXPECT_EQ(sleeper[0]["status"], "TO") << sleeper[0].dump();
    EXPECT_EQ(sleeper[0]["limit"], "timeout") << sleeper[0].dump();
    EXPECT_LT(sleeper[0]["wall_s"].get<double>(), 30.0) << "the sleep was not cut short";
    const auto boots =
        query("SELECT count(*) FROM steps WHERE json_extract(result, '$.guest.booted') = 1");
    EXPECT_EQ(boots[0][0], "1");
}

// VM_SETTINGS objects come from a JSON preset file: the settings YAML reader takes only
// single values for preset keys.
TEST_F(QemuCli, PresetWithVmSettingsRunsOnQemuAndOthersOnLocal) {
    write_settings(R"(
workflows:
  - name: where
    steps:
      - run: [/bin/sh, -c, 'echo hi']
        expect: {stdout_contains: hi}
)");
    const std::string presets = write_file("presets.json", R"([
  {"SCENARIO_NAME": "in_vm", "VM_SETTINGS": {"memory": "256M"}},
  {"SCENARIO_NAME": "on_host"}
])");
    const auto result = host({"run", "--runs", "2", "--preset-file", presets});
    EXPECT_EQ(result.exit_code, 0) << result.out << result.err;

    const auto in_vm = results_of("in_vm");
    ASSERT_EQ(in_vm.size(), 2U) << result.out << result.err;
    for (const auto &step : in_vm) {
        EXPECT_EQ(step.value("executor", ""), "qemu") << step.dump();
        EXPECT_EQ(step["status"], "OK") << step.dump();
        EXPECT_TRUE(step.contains("guest")) << step.dump();
    }
    const auto on_host = results_of("on_host");
    ASSERT_EQ(on_host.size(), 2U);
    for (const auto &step : on_host) {
        EXPECT_EQ(step.value("executor", ""), "") << step.dump();
        EXPECT_FALSE(step.contains("guest")) << step.dump();
        EXPECT_EQ(step["status"], "OK") << step.dump();
    }
}

TEST_F(QemuCli, MissingKernelAndBrokenBootAreDiagnosedAsXx) {
    write_settings(R"(
plugins:
  qemu: {boot_attempts: 2, backoff_ms: 100}
workflows:
  - name: boot
    steps:
      - run: [/bin/sh, -c, 'echo hi']
)");
    // Text is no initramfs: the kernel finds no root, panics, and QEMU exits (-no-reboot).
    const std::string initrd = write_file("not-an-initramfs", "plain text, not a cpio archive\n");
    const std::string presets = write_file(
        "presets.json", json::array({{{"SCENARIO_NAME", "no_kernel"},
                                      {"VM_SETTINGS", {{"kernel", "/nonexistent/vmlinuz"}}}},
                                     {{"SCENARIO_NAME", "bad_initrd"},
                                      {"VM_SETTINGS", {{"initrd", initrd}, {"timeout", 5}}}}})
                            .dump());
    const auto result = host({"run", "--runs", "1", "--preset-file", presets});
    EXPECT_NE(result.exit_code, 2) << result.err;

    const auto no_kernel = results_of("no_kernel");
    ASSERT_EQ(no_kernel.size(), 1U) << result.out << result.err;
    EXPECT_EQ(no_kernel[0]["status"], "XX");
    const std::string missing = no_kernel[0]["diagnostics"].value("vm_error", "");
    EXPECT_NE(missing.find("/nonexistent/vmlinuz"), std::string::npos) << no_kernel[0].dump();
    EXPECT_EQ(no_kernel[0]["diagnostics"]["attempts"], 0) << "nothing to boot, no attempt";

    const auto bad_initrd = results_of("bad_initrd");
    ASSERT_EQ(bad_initrd.size(), 1U);
    EXPECT_EQ(bad_initrd[0]["status"], "XX");
    EXPECT_NE(bad_initrd[0]["diagnostics"].value("vm_error", ""), "") << bad_initrd[0].dump();
    EXPECT_EQ(bad_initrd[0]["diagnostics"]["attempts"], 2) << bad_initrd[0].dump();
    EXPECT_TRUE(qemu_processes_naming(dir_).empty()) << "a failed boot left QEMU running";
    EXPECT_TRUE(overlay_folders().empty()) << "a failed boot left its overlay folder";
}

// SIGKILL leaves the host no chance to clean up: QEMU dies with it (parent-death signal),
// its overlay folder stays recorded until purge-stale, which spares a live host's folder.
TEST_F(QemuCli, KilledHostsGuestDiesAndPurgeStaleRemovesOnlyItsOverlay) {
    write_settings(kSlowWorkflow);
    const int pid = start_host("200");
    ASSERT_GE(wait_for_runs(2, std::chrono::seconds(120)), 2) << slurp(dir_ + "/host.log");
    ASSERT_FALSE(qemu_processes_naming(dir_).empty()) << "the host has a running guest";
    ASSERT_EQ(kill(pid, SIGKILL), 0);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);

    EXPECT_EQ(qemu_left_after_polling(dir_), std::vector<int>{}) << "QEMU outlived its host";
    const auto left = overlay_folders();
    ASSERT_EQ(left.size(), 1U);
    const std::string &dead = left[0];
    EXPECT_TRUE(active_overlays().contains(dead)) << active_overlays().dump();

    // An overlay of a live host (this test process) must survive the purge.
    const std::string live = overlay_root() + "/vm-x";
    fs::create_directories(live + "/share");
    const auto self = sbx::ProcessIdentity::current();
    std::ofstream(live + "/owner.json") << json{
        {"owner_pid", self.pid},
        {"owner_start", self.start_time},
        {"created", 0},
        {"vm_pid", 0}}.dump();

    const auto listed = host({"check-resources", "--json"});
    EXPECT_EQ(listed.exit_code, 1) << listed.out << listed.err;
    const json report = json::parse(listed.out);
    EXPECT_EQ(report["by_kind"].value("qemu", 0), 1) << listed.out;
    for (const auto &item : report["left"]) {
        if (item["kind"] == "qemu") {
            EXPECT_NE(item["what"].get<std::string>().find(dead), std::string::npos) << item;
        }
    }
    EXPECT_TRUE(fs::exists(dead)) << "check-resources removed";

    const auto purged = host({"purge-stale", "--json"});
    EXPECT_EQ(purged.exit_code, 0) << purged.out << purged.err;
    EXPECT_EQ(json::parse(purged.out)["by_kind"].value("qemu", 0), 1) << purged.out;
    EXPECT_FALSE(fs::exists(dead));
    EXPECT_FALSE(active_overlays().contains(dead)) << active_overlays().dump();
    EXPECT_TRUE(fs::exists(live + "/owner.json")) << "a live host's overlay was purged";

    const auto after = host({"check-resources", "--json"});
    EXPECT_FALSE(json::parse(after.out)["by_kind"].contains("qemu")) << after.out;
}

// SIGTERM (and SIGINT, the same path) mid-run: the host cancels, the run in flight ends, the
// guest is stopped and its overlay folder removed; exit code 3 as for every cancelled run.
TEST_F(QemuCli, SigtermStopsTheGuestAndRemovesItsOverlay) {
    write_settings(kSlowWorkflow);
    const int pid = start_host("200");
    ASSERT_GE(wait_for_runs(2, std::chrono::seconds(120)), 2) << slurp(dir_ + "/host.log");
    ASSERT_FALSE(qemu_processes_naming(dir_).empty()) << "the host has a running guest";
    ASSERT_EQ(overlay_folders().size(), 1U);
    ASSERT_EQ(kill(pid, SIGTERM), 0);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << slurp(dir_ + "/host.log");
    EXPECT_EQ(WEXITSTATUS(status), 3) << slurp(dir_ + "/host.log");
    EXPECT_EQ(qemu_left_after_polling(dir_), std::vector<int>{}) << "QEMU outlived its host";
    EXPECT_EQ(overlay_folders(), std::vector<std::string>{});
    EXPECT_TRUE(active_overlays().empty()) << active_overlays().dump();
}

// The warm guest gives each job a /tmp of its own and kills the job's cgroup after it: three
// runs on one boot each find nothing of the runs before, and no guest outlives the command.
TEST_F(QemuCli, EveryRunOnTheWarmGuestStartsClean) {
    expect_every_run_starts_clean("    executor: qemu\n");
    const auto boots =
        query("SELECT count(*) FROM steps WHERE json_extract(result, '$.guest.booted') = 1");
    EXPECT_EQ(boots, (std::vector<std::vector<std::string>>{{"1"}})) << "one warm guest";
    EXPECT_EQ(qemu_left_after_polling(dir_), std::vector<int>()) << "a guest outlived the command";
}

// The run's workspace goes into the guest and back after every step, so a later step sees
// what an earlier one wrote.
TEST_F(QemuCli, WorkspaceCarriesFilesFromStepToStep) {
    write_settings(R"(
presets: [{SCENARIO_NAME: normal}]
workflows:
  - name: relay
    executor: qemu
    steps:
      - name: write
        run: [/bin/sh, -c, 'mkdir -p out && echo "written in the guest" > out/note.txt']
      - name: read
        run: [/bin/sh, -c, 'cat out/note.txt']
        expect: {stdout_contains: written in the guest}
)");
    const auto result = host({"run", "--runs", "2"});
    EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
    const auto steps = results_of("normal");
    ASSERT_EQ(steps.size(), 4U) << result.out << result.err;
    for (size_t i = 1; i < steps.size(); i += 2) {
        EXPECT_EQ(steps[i]["stdout"], "written in the guest\n") << steps[i].dump();
    }
    EXPECT_EQ(query("SELECT count(*) FROM runs WHERE passed = 1")[0][0], "2");
}

// Invalid UTF-8 and NULs reach a target in the guest exactly: the job's files carry bytes.
TEST_F(QemuCli, RawBytesReachTheTargetExactly) {
    expect_raw_bytes_reach_the_target("    executor: qemu\n");
    EXPECT_EQ(qemu_left_after_polling(dir_), std::vector<int>()) << "a guest outlived the command";
}

}  // namespace
