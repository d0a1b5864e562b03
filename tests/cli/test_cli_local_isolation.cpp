// Runs under the local executor are independent: three runs of the leftover-counting
// workflow each find no file an earlier run left in /tmp and no process it started, and no
// such process outlives the command. (The docker and qemu legs are in their own tests.)
#include "executor_parity.hpp"

namespace {

class LocalCli : public sbx::test::ExecutorParityTest {};

TEST_F(LocalCli, EveryLocalRunStartsClean) {
    expect_every_run_starts_clean("    executor: local\n");
}

}  // namespace
