// Runs under the local executor are independent: three runs of the leftover-counting
// workflow each find no file an earlier run left in /tmp and no process it started, and no
// such process outlives the command. (The docker and qemu legs are in their own tests.)
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "executor_parity.hpp"

namespace {

class LocalCli : public sbx::test::ExecutorParityTest {
  protected:
    // Without a private /tmp the runs' files land in the machine's: take them back.
    void TearDown() override {
        std::error_code error;
        for (std::filesystem::directory_iterator it("/tmp", error), end; !error && it != end;
             it.increment(error)) {
            if (it->path().filename().string().rfind("barsmark-", 0) == 0) {
                std::filesystem::remove_all(it->path(), error);
            }
        }
        ExecutorParityTest::TearDown();
    }
};

TEST_F(LocalCli, EveryLocalRunStartsClean) {
    expect_every_run_starts_clean("    executor: local\n");
}

// A project (settings, a script that sources its sibling, a data file) made in `parent`.
// Removed when the test ends.
class Project {
  public:
    explicit Project(const std::string &parent) {
        std::string pattern = parent + "/sbx-project-XXXXXX";
        if (::mkdtemp(pattern.data()) != nullptr) {
            root_ = pattern;
        }
        std::filesystem::create_directories(root_ / "data");
        std::ofstream(root_ / "lib.sh") << "greeting=hello\n";
        std::ofstream(root_ / "app.sh") << "#!/bin/sh\n. \"$(dirname \"$0\")/lib.sh\"\n"
                                           "echo \"$greeting $(cat \"$1\")\"\n";
        std::filesystem::permissions(root_ / "app.sh", std::filesystem::perms::owner_all);
        std::ofstream(root_ / "data" / "name.txt") << "world\n";
        // The program relative to where the command starts, the data by its absolute path.
        std::ofstream(root_ / "sandbox_settings.yaml")
            << "extends: default\n"
               "presets: [{SCENARIO_NAME: normal}]\n"
               "workflows:\n"
               "  - name: project\n"
               "    steps:\n"
               "      - run: [./app.sh, '"
            << (root_ / "data" / "name.txt").string()
            << "']\n"
               "        expect: {exit_code: 0, stdout_contains: hello world}\n";
    }
    ~Project() {
        std::error_code ignored;
        std::filesystem::remove_all(root_, ignored);
    }
    Project(const Project &) = delete;
    Project &operator=(const Project &) = delete;
    [[nodiscard]] std::string root() const { return root_.string(); }

  private:
    std::filesystem::path root_;
};

// Quick trials, CI runners and build trees live under /tmp, which the default `readonly`
// view replaces with a private one: a project there runs as one in the user's home does.
TEST_F(LocalCli, AProjectUnderTmpRunsAsItDoesFromHome) {
    const char *home = std::getenv("HOME");
    ASSERT_TRUE(home != nullptr && std::filesystem::is_directory(home))
        << "this test compares a project under /tmp with one in $HOME; set HOME";
    for (const std::string &parent : {std::string("/tmp"), std::string(home)}) {
        const Project project(parent);
        ASSERT_FALSE(project.root().empty()) << "cannot make a folder in " << parent;
        const auto result = sbx::test::run_command(
            {SBX_BINARY, "--config", project.root() + "/sandbox_settings.yaml", "--data-dir",
             dir_ + "/data-" + std::to_string(parent.size()), "run", "-w", "project", "--json"},
            {}, project.root());
        EXPECT_EQ(result.exit_code, 0) << parent << ":\n" << result.out << result.err;
        const auto report = nlohmann::json::parse(result.out, nullptr, false);
        ASSERT_TRUE(report.is_object() && report["cells"].size() == 1) << result.out;
        EXPECT_EQ(report["cells"][0]["roi"], 1.0) << parent << ":\n" << result.out;
    }
}

}  // namespace
