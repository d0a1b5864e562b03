// The qemu executor through the host's real loader: configuration and spec errors, a missing
// kernel, the overlay sweep (on real folders and a real process standing in for a dead
// host's QEMU), and one real guest shared by two instances at once, with OOM, timeout, the
// workspace round trip, and a guest killed under a run. Needs qemu-system-x86_64 and the
// guest the build makes; fails, never skips, without them.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include <sbx/process_identity.hpp>
#include "command.hpp"
#include "native_exit.hpp"
#include "plugins/plugin.hpp"
#include "wait.hpp"

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

std::shared_ptr<sbx::plugins::Plugin> qemu_plugin() {
    static const auto plugin = sbx::plugins::load_plugin(SBX_QEMU_EXECUTOR_PATH);
    return plugin;
}

// True when a file named `name` is somewhere under `root` (a guest's share included).
bool has_file_named(const std::string &root, const std::string &name) {
    std::error_code error;
    for (fs::recursive_directory_iterator it(root, error), end; !error && it != end;
         it.increment(error)) {
        if (it->path().filename() == name) {
            return true;
        }
    }
    return false;
}

class QemuExecutorTest : public ::testing::Test {
  protected:
    void SetUp() override {
        state_dir_ = sbx::test::make_temp_dir("qemu-state");
        workspace_ = sbx::test::make_temp_dir("qemu-ws");
    }
    void TearDown() override {
        std::error_code ignored;
        fs::remove_all(state_dir_, ignored);
        fs::remove_all(workspace_, ignored);
    }
    json spec(const json &argv, const json &limits = json::object()) const {
        return json{{"run_id", "q-1"},
                    {"argv", argv},
                    {"workspace", workspace_},
                    {"limits", limits},
                    {"state_dir", state_dir_}};
    }
    static json run_on(sbx::plugins::Instance &instance, const json &spec) {
        return json::parse(instance.run(spec.dump()));
    }
    // An overlay folder as the executor makes it, owned by `owner_pid`.
    std::string fake_overlay(const std::string &name, long owner_pid, long vm_pid, bool record,
                             long created = 0) const {
        std::string folder = state_dir_ + "/qemu/" + name;
        fs::create_directories(folder + "/share");
        const json entry{{"owner_pid", owner_pid},
                         {"owner_start", sbx::process_start_time(static_cast<pid_t>(owner_pid)) +
                                             (owner_pid == ::getpid() ? 0 : 1)},
                         {"created", created},
                         {"vm_pid", vm_pid}};
        std::ofstream(folder + "/owner.json") << entry.dump();
        if (record) {
            const std::string file = state_dir_ + "/qemu/active_overlays.json";
            json active = json::parse(std::ifstream(file), nullptr, false);
            if (!active.is_object()) {
                active = json::object();
            }
            active[folder] = entry;
            std::ofstream(file) << active.dump();
        }
        return folder;
    }

    std::string state_dir_;
    std::string workspace_;
};

TEST_F(QemuExecutorTest, BadConfigurationAndVariablesAreRefusedByName) {
    EXPECT_THROW(
        {
            try {
                (void)qemu_plugin()->create(json{{"memory_mb", 8}});
            } catch (const std::exception &e) {
                EXPECT_NE(std::string(e.what()).find("memory_mb"), std::string::npos) << e.what();
                throw;
            }
        },
        std::exception);
    ::setenv("SANDBOX_OVERLAY_MAX_AGE", "a week", 1);
    try {
        (void)qemu_plugin()->create(json::object());
        ADD_FAILURE() << "a bad SANDBOX_OVERLAY_MAX_AGE was accepted";
    } catch (const std::exception &e) {
        EXPECT_NE(std::string(e.what()).find("SANDBOX_OVERLAY_MAX_AGE"), std::string::npos)
            << e.what();
    }
    ::unsetenv("SANDBOX_OVERLAY_MAX_AGE");
}

TEST_F(QemuExecutorTest, MalformedVmSettingsIsAnInvalidSpecNamingTheField) {
    auto instance = qemu_plugin()->create(json::object());
    json s = spec({"true"});
    s["vm_settings"] = {{"memory", "lots"}};
    try {
        (void)instance->run(s.dump());
        ADD_FAILURE() << "VM_SETTINGS.memory 'lots' was accepted";
    } catch (const sbx::plugins::PluginCallError &e) {
        EXPECT_EQ(e.status(), SBX_INVALID);
        EXPECT_NE(std::string(e.what()).find("VM_SETTINGS.memory"), std::string::npos) << e.what();
    }
}

TEST_F(QemuExecutorTest, MissingKernelIsAnImmediateXXWithADiagnostic) {
    auto instance = qemu_plugin()->create(json::object());
    json s = spec({"true"});
    s["vm_settings"] = {{"kernel", "/nonexistent/vmlinuz"}};
    const auto started = std::chrono::steady_clock::now();
    const json result = run_on(*instance, s);
    EXPECT_EQ(result["status"], "XX") << result.dump();
    const std::string error = result["diagnostics"]["vm_error"];
    EXPECT_NE(error.find("/nonexistent/vmlinuz"), std::string::npos) << error;
    EXPECT_NE(error.find("linux-image-amd64"), std::string::npos) << "says how to get one";
    EXPECT_EQ(result["diagnostics"]["attempts"], 0) << "nothing to retry";
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5))
        << "no boot was attempted";
}

TEST_F(QemuExecutorTest, SweepStopsDeadHostsGuestsAndRemovesOnlyTheirOverlays) {
    // A dead host: a child that has exited (its pid, with another start time, is gone).
    const pid_t dead = ::fork();
    if (dead == 0) {
        ::_exit(0);
    }
    ASSERT_EQ(::waitpid(dead, nullptr, 0), dead);
    const std::string dead_folder = state_dir_ + "/qemu/vm-dead-0-0";
    // A process standing in for its QEMU: the sweep knows it by the folder in its command
    // line, and a process that does not name the folder is never killed.
    const pid_t vm = ::fork();
    if (vm == 0) {
        ::execl("/bin/sh", "sh", "-c", "while :; do sleep 1; done",
                (dead_folder + "/ctl.sock").c_str(), nullptr);
        ::_exit(127);
    }
    const pid_t bystander = ::fork();
    if (bystander == 0) {
        ::execl("/bin/sleep", "sleep", "60", nullptr);
        ::_exit(127);
    }
    // Until it has exec'd, its command line is this test's: wait for the folder to show.
    EXPECT_TRUE(sbx::test::wait_until([&] {
        std::ifstream in("/proc/" + std::to_string(vm) + "/cmdline");
        const std::string cmdline((std::istreambuf_iterator<char>(in)),
                                  std::istreambuf_iterator<char>());
        return cmdline.find(dead_folder) != std::string::npos;
    })) << "the stand-in never exec'd";
    fake_overlay("vm-dead-0-0", dead, vm, true);
    const std::string unrecorded = fake_overlay("vm-dead-1-0", dead, bystander, false);
    const std::string live = fake_overlay("vm-live-0-0", ::getpid(), bystander, true);
    fs::create_directories(state_dir_ + "/qemu/not-ours");

    auto instance = qemu_plugin()->create(json::object());
    const json listed =
        json::parse(instance->sweep(json{{"state_dir", state_dir_}, {"dry_run", true}}.dump()));
    EXPECT_EQ(listed["removed"].size(), 2U) << listed.dump();
    EXPECT_TRUE(fs::exists(dead_folder)) << "a dry run removes nothing";

    const json swept =
        json::parse(instance->sweep(json{{"state_dir", state_dir_}, {"dry_run", false}}.dump()));
    EXPECT_EQ(swept["removed"].size(), 2U) << swept.dump();
    EXPECT_EQ(swept["counters"]["stale_vms_removed"], 2) << swept.dump();
    EXPECT_FALSE(fs::exists(dead_folder));
    EXPECT_FALSE(fs::exists(unrecorded));
    EXPECT_TRUE(fs::exists(live)) << "a live host's overlay is not touched";
    EXPECT_TRUE(fs::exists(state_dir_ + "/qemu/not-ours")) << "nor a folder it did not make";
    int status = 0;
    EXPECT_EQ(::waitpid(vm, &status, 0), vm);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "its QEMU was stopped";
    EXPECT_EQ(::waitpid(bystander, &status, WNOHANG), 0) << "a process not naming it lives";
    ::kill(bystander, SIGKILL);
    ::waitpid(bystander, nullptr, 0);
    const json active =
        json::parse(std::ifstream(state_dir_ + "/qemu/active_overlays.json"), nullptr, false);
    EXPECT_FALSE(active.contains(dead_folder)) << active.dump();
    EXPECT_TRUE(active.contains(live)) << active.dump();
}

TEST_F(QemuExecutorTest, OneGuestServesConcurrentInstancesWithLimitsAndSurvivesALostGuest) {
    const auto qemu = sbx::test::run_command({"/bin/sh", "-c", "command -v qemu-system-x86_64"});
    ASSERT_EQ(qemu.exit_code, 0) << "qemu-system-x86_64 is missing; tools/install-deps "
                                    "installs qemu-system-x86 (tools/test runs it)";
    auto first = qemu_plugin()->create(json{{"max_overlay_count", 2}});
    auto second = qemu_plugin()->create(json::object());

    // Two instances at once: one boot, one guest, both runs in it side by side.
    std::ofstream(workspace_ + "/given.txt") << "from the host";
    auto other = std::async(std::launch::async, [&] {
        json s = spec({"/bin/sh", "-c", "sleep 0.3; echo second"});
        s["workspace"] = sbx::test::make_temp_dir("qemu-ws2");
        json result = run_on(*second, s);
        fs::remove_all(s["workspace"].get<std::string>());
        return result;
    });
    const json one = run_on(*first, spec({"/bin/sh", "-c", "cat given.txt; echo made > made.txt"}));
    const json two = other.get();
    ASSERT_EQ(one["status"], "OK") << one.dump();
    ASSERT_EQ(two["status"], "OK") << two.dump();
    EXPECT_EQ(one["stdout"], "from the host");
    EXPECT_EQ(two["stdout"], "second\n");
    EXPECT_EQ(one["guest"]["pid"], two["guest"]["pid"]) << "the same guest";
    EXPECT_NE(one["guest"]["booted"], two["guest"]["booted"]) << "exactly one boot";
    std::ifstream made(workspace_ + "/made.txt");
    std::string made_text;
    std::getline(made, made_text);
    EXPECT_EQ(made_text, "made") << "the workspace came back from the guest";

    const json hog =
        run_on(*first, spec({"dd", "if=/dev/zero", "of=/dev/null", "bs=64M", "count=1"},
                            {{"memory_bytes", 16 << 20}}));
    EXPECT_EQ(hog["status"], "OOM") << hog.dump();
    EXPECT_EQ(hog["limit"], "memory");
    const json sleeper = run_on(*first, spec({"sleep", "30"}, {{"timeout_ms", 300}}));
    EXPECT_EQ(sleeper["status"], "TO") << sleeper.dump();
    EXPECT_EQ(sleeper["limit"], "timeout");
    EXPECT_EQ(sleeper["guest"]["pid"], one["guest"]["pid"]) << "still the first boot";

    // A target is nobody: it cannot answer for the agent, leave its cgroup, or plant a link
    // where the host reads its results.
    const json contained = run_on(
        *first, spec({"/bin/sh", "-c",
                      "id -u; (echo done 1 > /dev/ttyS1) 2>/dev/null || echo tty-denied; "
                      "(echo $$ > /sys/fs/cgroup/cgroup.procs) 2>/dev/null || echo cgroup-denied; "
                      "ln -s /etc/passwd ../stdout 2>/dev/null || echo job-denied"}));
    EXPECT_EQ(contained["status"], "OK") << contained.dump();
    EXPECT_EQ(contained["stdout"], "65534\ntty-denied\ncgroup-denied\njob-denied\n");

    // The guest dies under a run: that run is XX with the reason; the next one boots anew.
    auto doomed = std::async(std::launch::async, [&] {
        return run_on(*second, spec({"/bin/sh", "-c", "touch doomed-started; exec sleep 20"}));
    });
    // The job's workspace is in the guest's share (9p): its mark shows on this side as soon
    // as the target runs.
    EXPECT_TRUE(sbx::test::wait_until([&] { return has_file_named(state_dir_, "doomed-started"); }))
        << "the doomed run never started";
    ASSERT_EQ(::kill(one["guest"]["pid"].get<int>(), SIGKILL), 0);
    const json lost = doomed.get();
    EXPECT_EQ(lost["status"], "XX") << lost.dump();
    EXPECT_NE(lost["diagnostics"]["vm_error"].get<std::string>().find("guest stopped"),
              std::string::npos)
        << lost.dump();
    const json again = run_on(*first, spec({"true"}));
    EXPECT_EQ(again["status"], "OK") << again.dump();
    EXPECT_EQ(again["guest"]["booted"], true);
    EXPECT_NE(again["guest"]["pid"], one["guest"]["pid"]);

    // Another plan boots another guest (the first plan's stops: its last user moved on). Over
    // max_overlay_count (2), a dead host's oldest overlay makes room; these appeared after the
    // process's first sweep, so only the cap finds them.
    const pid_t dead = ::fork();
    if (dead == 0) {
        ::_exit(0);
    }
    ASSERT_EQ(::waitpid(dead, nullptr, 0), dead);
    const std::string oldest = fake_overlay("vm-old-1", dead, 0, true, 1);
    const std::string older = fake_overlay("vm-old-2", dead, 0, true, 2);
    json bigger = spec({"true"});
    bigger["vm_settings"] = {{"memory", "300M"}};
    const json moved = run_on(*first, bigger);
    EXPECT_EQ(moved["status"], "OK") << moved.dump();
    EXPECT_EQ(moved["guest"]["booted"], true);
    EXPECT_FALSE(fs::exists(oldest));
    EXPECT_TRUE(fs::exists(older)) << "only as many as the cap needs";
    EXPECT_EQ(moved["cleanup"]["stale_vms_removed"], 1) << moved.dump();
    EXPECT_EQ(::kill(again["guest"]["pid"].get<int>(), 0), -1)
        << "the first plan's guest stopped when its last user moved on";

    first.reset();
    second.reset();
    EXPECT_EQ(::kill(moved["guest"]["pid"].get<int>(), 0), -1) << "the guest stopped with us";
    const json active =
        json::parse(std::ifstream(state_dir_ + "/qemu/active_overlays.json"), nullptr, false);
    EXPECT_EQ(active.size(), 1U) << "every overlay of ours was removed: " << active.dump();
    EXPECT_TRUE(active.contains(older)) << active.dump();
}

// Every way a program dies ends in the guest as it ends natively: the same signal, the same
// exit code (128 + N), with cpu_time_s and disk_bytes mapped to RLIMIT_CPU and RLIMIT_FSIZE
// as the guest agent maps them. One boot serves every case (a boot costs seconds), so the
// cases are one test, each failure naming its behaviour.
TEST_F(QemuExecutorTest, EveryWayToDieIsReportedAsNatively) {
    const auto qemu = sbx::test::run_command({"/bin/sh", "-c", "command -v qemu-system-x86_64"});
    ASSERT_EQ(qemu.exit_code, 0) << "qemu-system-x86_64 is missing; tools/install-deps "
                                    "installs qemu-system-x86 (tools/test runs it)";
    auto instance = qemu_plugin()->create(json::object());
    const std::string native_folder = sbx::test::make_temp_dir("qemu-native");
    const std::string program = native_folder + "/sbx_test_target";
    fs::copy_file(SBX_STATIC_TEST_TARGET_PATH, program);
    // The workspace is copied into the guest; the target runs there from its copy.
    fs::copy_file(SBX_STATIC_TEST_TARGET_PATH, workspace_ + "/sbx_test_target");
    for (const auto &c : sbx::test::exit_cases(true)) {
        SCOPED_TRACE(c.behaviour);
        const sbx::test::NativeEnding native = sbx::test::run_natively(program, c, native_folder);
        ASSERT_EQ(native.signal, c.expected_signal)
            << "natively it ended with exit code " << native.exit_code;
        json argv = json::array({"./sbx_test_target"});
        for (const auto &arg : c.args) {
            argv.push_back(arg);
        }
        json limits = {{"timeout_ms", 60000}};
        if (c.cpu_time_s > 0) {
            limits["cpu_time_s"] = c.cpu_time_s;
        }
        if (c.file_size_bytes > 0) {
            limits["disk_bytes"] = c.file_size_bytes;
        }
        const json result = run_on(*instance, spec(argv, limits));
        EXPECT_EQ(result["status"], c.status) << result.dump();
        EXPECT_EQ(result["signal"], native.signal) << result.dump();
        EXPECT_EQ(result["exit_code"], native.exit_code) << result.dump();
        fs::remove(workspace_ + "/big.bin");
    }
    fs::remove_all(native_folder);
}

}  // namespace
