// Runs under the local executor are independent: three runs of the leftover-counting
// workflow each find no file an earlier run left in /tmp and no process it started, and no
// such process outlives the command. (The docker and qemu legs are in their own tests.)
#include <filesystem>

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

}  // namespace
