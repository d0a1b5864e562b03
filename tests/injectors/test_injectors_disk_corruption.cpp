// The `disk_corruption` injector: a real target writing a known file through write(2),
// pwrite(2) and fwrite(3) under the LD_PRELOAD shim; the file's bytes differ from what it
// wrote at about the set rate, identically for the same seed, and nowhere else. The same
// shim fills the disk (ENOSPC after so many bytes) and slows the first writes.
#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "resource_injector_fixture.hpp"

namespace sbx::injectors_test {
namespace {

constexpr long long kBytes = 1 << 20;
json corruption_preset() {
    return {{"FAILURE_MODES", {"disk_corruption"}}};
}

// Bytes of `path` that differ from the pattern sbx_executors_test_target writes.
long long differing_bytes(const std::filesystem::path &path) {
    const std::string content = read_file(path);
    long long differing = static_cast<long long>(kBytes) - static_cast<long long>(content.size());
    for (long long offset = 0; offset < static_cast<long long>(content.size()); ++offset) {
        const auto expected = static_cast<unsigned char>((offset * 131 + 7) % 251);
        differing +=
            static_cast<unsigned char>(content[static_cast<std::size_t>(offset)]) != expected;
    }
    return differing;
}

json pattern_spec(const std::string &workspace, const std::string &file, const char *how) {
    return {{"argv", {target(), "pattern", file, std::to_string(kBytes), how}},
            {"workspace", workspace}};
}

TEST_F(ResourceInjectorTest, CorruptionFlipsAboutTheRateOfWrittenBytes) {
    const auto injector = disk_corruption_plugin()->create(json::object());
    const InjectedRun run =
        run_injected(*injector, corruption_preset(), pattern_spec(workspace_, "out.bin", "write"));
    ASSERT_TRUE(run.response["active"]) << run.response.dump();
    EXPECT_EQ(run.result["status"], "OK") << run.result.dump(2);
    EXPECT_EQ(run.result["stdout"], "wrote 1048576\n") << "a pipe is no workspace file";
    const long long flipped = differing_bytes(std::filesystem::path(workspace_) / "out.bin");
    EXPECT_NEAR(static_cast<double>(flipped), 0.01 * kBytes, 0.1 * 0.01 * kBytes);
    // The shim's report was read by teardown and removed.
    EXPECT_TRUE(std::filesystem::is_empty(std::filesystem::path(state_dir_) / "disk_corruption"));
}

TEST_F(ResourceInjectorTest, CorruptionIsSeededAndCoversPwriteAndFwrite) {
    const auto injector = disk_corruption_plugin()->create(json::object());
    const json preset = {{"FAILURE_MODES", "disk_corruption"}, {"SANDBOX_CORRUPTION_RATE", "5%"}};
    for (const char *how : {"write", "pwrite", "fwrite"}) {
        const std::string file = std::string(how) + ".bin";
        const InjectedRun run =
            run_injected(*injector, preset, pattern_spec(workspace_, file, how));
        ASSERT_EQ(run.result["status"], "OK") << run.result.dump(2);
        EXPECT_EQ(run.spec()["env"]["SANDBOX_CORRUPTION_RATE"], "0.05");
        EXPECT_NEAR(static_cast<double>(differing_bytes(std::filesystem::path(workspace_) / file)),
                    0.05 * kBytes, 0.05 * 0.05 * kBytes)
            << how;
    }
    // Same run and seed: the same offsets, however the bytes were written.
    EXPECT_EQ(read_file(std::filesystem::path(workspace_) / "write.bin"),
              read_file(std::filesystem::path(workspace_) / "pwrite.bin"));
    EXPECT_EQ(read_file(std::filesystem::path(workspace_) / "write.bin"),
              read_file(std::filesystem::path(workspace_) / "fwrite.bin"));
    // Another seed: other offsets.
    const auto reseeded = disk_corruption_plugin()->create({{"seed", 9}});
    (void)run_injected(*reseeded, preset, pattern_spec(workspace_, "seed9.bin", "write"));
    EXPECT_NE(read_file(std::filesystem::path(workspace_) / "write.bin"),
              read_file(std::filesystem::path(workspace_) / "seed9.bin"));
}

TEST_F(ResourceInjectorTest, CorruptionReachesCoreutilsThroughTheirOwnWritePaths) {
    // head -c writes with fwrite_unlocked, dd with write, cp would copy_file_range (refused
    // by the shim, so it falls back to write).
    const auto injector = disk_corruption_plugin()->create({{"rate", 0.05}});
    const InjectedRun run =
        run_injected(*injector, corruption_preset(),
                     {{"argv",
                       {"sh", "-c",
                        "head -c 262144 /dev/zero > head.bin && "
                        "dd if=/dev/zero of=dd.bin bs=64k count=4 2>/dev/null && "
                        "head -c 262144 /dev/zero > /dev/null && cp /dev/null empty.bin"}},
                      {"workspace", workspace_}});
    ASSERT_EQ(run.result["status"], "OK") << run.result.dump(2);
    for (const char *file : {"head.bin", "dd.bin"}) {
        const std::string content = read_file(std::filesystem::path(workspace_) / file);
        ASSERT_EQ(content.size(), 262144U) << file;
        const auto nonzero =
            std::count_if(content.begin(), content.end(), [](char c) { return c != 0; });
        EXPECT_NEAR(static_cast<double>(nonzero), 0.05 * 262144, 0.1 * 0.05 * 262144) << file;
    }
}

TEST_F(ResourceInjectorTest, CorruptionLeavesOtherFilesAndOtherPresetsAlone) {
    const auto injector = disk_corruption_plugin()->create(json::object());
    // Outside the workspace: untouched.
    const std::string outside = test::make_temp_dir("sbx-res-outside-") + "/out.bin";
    json outside_spec = pattern_spec(workspace_, outside, "write");
    outside_spec["filesystem"] = "host";  // the target writes outside its workspace on purpose
    const InjectedRun away = run_injected(*injector, corruption_preset(), outside_spec);
    EXPECT_EQ(away.result["status"], "OK") << away.result.dump(2);
    EXPECT_EQ(differing_bytes(outside), 0);
    std::filesystem::remove_all(std::filesystem::path(outside).parent_path());
    // Not listed: inactive, the spec unchanged and the file intact.
    const InjectedRun plain = run_injected(*injector, {{"FAILURE_MODES", "timeout"}},
                                           pattern_spec(workspace_, "plain.bin", "write"));
    EXPECT_FALSE(plain.response["active"]);
    EXPECT_EQ(differing_bytes(std::filesystem::path(workspace_) / "plain.bin"), 0);
}

TEST_F(ResourceInjectorTest, CorruptionReachesATmpfsWorkspaceOfAFreshRun) {
    // No workspace in the spec: the executor makes one, here a tmpfs of DISK_LIMIT, and the
    // shim takes the folder the target starts in as the workspace. Kept, it is copied back.
    const auto injector = disk_corruption_plugin()->create({{"rate", 0.02}});
    const InjectedRun run =
        run_injected(*injector, corruption_preset(),
                     {{"argv", {target(), "pattern", "out.bin", std::to_string(kBytes), "write"}},
                      {"keep_workspace", true},
                      {"limits", {{"disk_bytes", 2 * kBytes}}}});
    ASSERT_EQ(run.result["status"], "OK") << run.result.dump(2);
    EXPECT_EQ(run.result["enforcement"]["disk"], "tmpfs");
    EXPECT_FALSE(run.spec()["env"].contains("SANDBOX_CORRUPTION_ROOT"));
    const std::filesystem::path kept = run.result["workspace"].get<std::string>();
    EXPECT_NEAR(static_cast<double>(differing_bytes(kept / "out.bin")), 0.02 * kBytes,
                0.1 * 0.02 * kBytes);
    std::filesystem::remove_all(kept);
}

// A full disk: the file ends at exactly DISK_FULL_AFTER bytes, the writer sees ENOSPC (as
// Python's OSError errno 28), the tally counts the refused writes; a cell's first run finds
// the disk full from its first byte.
TEST_F(ResourceInjectorTest, AFullDiskCutsTheFileAtTheLimitAndRefusesTheNextWrite) {
    const auto injector = disk_corruption_plugin()->create(json::object());
    const json spec = {{"argv",
                        {"python3", "-c",
                         "import sys\n"
                         "try:\n"
                         "    with open('out.bin', 'wb') as f:\n"
                         "        f.write(b'x' * 100000)\n"
                         "except OSError as e:\n"
                         "    print('errno', e.errno)\n"
                         "    sys.exit(3)\n"}},
                       {"workspace", workspace_},
                       {"run_id", "4242-9"}};
    const InjectedRun full = run_injected(*injector, {{"DISK_FULL_AFTER", "4Ki"}}, spec);
    ASSERT_TRUE(full.response["active"]) << full.response.dump();
    EXPECT_EQ(full.spec()["env"]["SANDBOX_DISK_FULL_AFTER"], "4096");
    EXPECT_EQ(full.spec()["env"]["SANDBOX_CORRUPTION_RATE"], "0") << "no corruption asked for";
    EXPECT_EQ(full.result["exit_code"], 3) << full.result.dump(2);
    EXPECT_EQ(full.result["stdout"], "errno 28\n");
    EXPECT_EQ(std::filesystem::file_size(std::filesystem::path(workspace_) / "out.bin"), 4096U);
    EXPECT_EQ(full.tally["applied"], json::array({"disk full (ENOSPC)"})) << full.tally.dump();
    EXPECT_GE(full.tally["disk_corruption"]["refused"], 1) << full.tally.dump();
    EXPECT_EQ(full.tally["disk_corruption"]["examined"], 4096) << full.tally.dump();

    // Repetition 0 of a cell: full from the first byte, whatever the preset's size.
    json first = request({{"FAILURE_MODES", "disk_full"}}, spec);
    first["repetition"] = 0;
    const json answer = json::parse(injector->prepare(first.dump()));
    EXPECT_EQ(answer["spec"]["env"]["SANDBOX_DISK_FULL_AFTER"], "0") << answer.dump();
    injector->teardown(answer["state"].dump());
    // The mode alone, later repetitions: the plugin's full_after (64 KiB by default).
    first["repetition"] = 3;
    const json later = json::parse(injector->prepare(first.dump()));
    EXPECT_EQ(later["spec"]["env"]["SANDBOX_DISK_FULL_AFTER"], "65536") << later.dump();
    injector->teardown(later["state"].dump());
    // A wrong size is the preset's error, naming the key.
    try {
        (void)injector->prepare(request({{"DISK_FULL_AFTER", "lots"}}, spec).dump());
        ADD_FAILURE() << "no error for DISK_FULL_AFTER: lots";
    } catch (const plugins::PluginCallError &error) {
        EXPECT_EQ(error.status(), SBX_INVALID);
        EXPECT_NE(std::string(error.what()).find("DISK_FULL_AFTER"), std::string::npos);
    }
}

// A slow disk: the first writes of each process take the delay longer, the rest do not; a
// program that writes nothing meets no slow disk, and the tally says so.
TEST_F(ResourceInjectorTest, ASlowDiskDelaysTheFirstWritesOfEachProcessOnly) {
    const auto injector = disk_corruption_plugin()->create({{"slow_writes", 3}});
    const json spec = {
        {"argv", {"sh", "-c", "for i in 1 2 3 4 5 6 7 8; do echo $i >> log.txt; done"}},
        {"workspace", workspace_}};
    const auto started = std::chrono::steady_clock::now();
    const InjectedRun slow = run_injected(*injector, {{"DISK_WRITE_DELAY_MS", "150"}}, spec);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    EXPECT_EQ(slow.result["status"], "OK") << slow.result.dump(2);
    EXPECT_EQ(read_file(std::filesystem::path(workspace_) / "log.txt"), "1\n2\n3\n4\n5\n6\n7\n8\n");
    // Each `echo` is a write of the one shell process: 3 of the 8 were slowed by 150 ms.
    EXPECT_GE(seconds, 0.45);
    EXPECT_EQ(slow.tally["applied"], json::array({"writes slowed by 150 ms"})) << slow.tally.dump();
    EXPECT_EQ(slow.tally["disk_corruption"]["delayed"], 3) << slow.tally.dump();

    const InjectedRun idle = run_injected(*injector, {{"FAILURE_MODES", "slow_disk"}},
                                          {{"argv", {"true"}}, {"workspace", workspace_}});
    EXPECT_EQ(idle.spec()["env"]["SANDBOX_DISK_WRITE_DELAY_MS"], "200");
    EXPECT_TRUE(idle.tally["applied"].empty()) << idle.tally.dump();
    EXPECT_EQ(idle.tally["not_applied"], "slow disk: no write to a workspace file")
        << idle.tally.dump();
}

TEST_F(ResourceInjectorTest, CorruptionSweepRemovesReportsOfDeadHostsOnly) {
    const auto folder = std::filesystem::path(state_dir_) / "disk_corruption";
    std::filesystem::create_directories(folder);
    write_file(folder / "1-1.report", "host 999999999 1\npid 3 examined 10 flipped 1\n");
    write_file(folder / "2-1.report",
               "host " + std::to_string(::getpid()) + " 0\n");  // start time 0: not alive
    const auto injector = disk_corruption_plugin()->create(json::object());
    // A live run's report (this process) stays.
    const json response = json::parse(injector->prepare(
        request(corruption_preset(), {{"argv", {"true"}}, {"workspace", workspace_}}).dump()));
    const json listed =
        json::parse(injector->sweep(json{{"state_dir", state_dir_}, {"dry_run", true}}.dump()));
    EXPECT_EQ(listed["removed"].size(), 2U) << listed.dump();
    EXPECT_TRUE(std::filesystem::exists(folder / "1-1.report")) << "a dry run removes nothing";
    const json swept = json::parse(injector->sweep(json{{"state_dir", state_dir_}}.dump()));
    EXPECT_EQ(swept["removed"].size(), 2U) << swept.dump();
    EXPECT_FALSE(std::filesystem::exists(folder / "1-1.report"));
    const std::string live = response["state"]["report"];
    EXPECT_TRUE(std::filesystem::exists(live));
    injector->teardown(response["state"].dump());
    EXPECT_FALSE(std::filesystem::exists(live));
}

}  // namespace
}  // namespace sbx::injectors_test
