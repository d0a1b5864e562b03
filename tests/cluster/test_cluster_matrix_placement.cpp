// The host side of `--on slurm`: which words a worker runs, and which places exist.
#include <gtest/gtest.h>

#include "cluster/matrix_placement.hpp"
#include "util/errors.hpp"

namespace sbx::cluster {
namespace {

using Words = std::vector<std::string>;

TEST(WorkerWords, DropWhatOnlyTheSubmittingHostDoesAndAppendSeedAndWorkers) {
    const Words args = {"wf",
                        "--on",
                        "slurm",
                        "--recover",
                        "--repetitions",
                        "3",
                        "--report",
                        "junit:out.xml",
                        "--json",
                        "--seed=7",
                        "--workers",
                        "4",
                        "--metrics-port=9100"};
    EXPECT_EQ(
        worker_words("run-scenarios", args, 42, 2),
        (Words{"run-scenarios", "wf", "--repetitions", "3", "--seed", "42", "--workers", "2"}));
}

TEST(WorkerWords, KeepEverythingAfterTheDoubleDash) {
    const Words args = {"wf", "--", "--on", "slurm"};
    EXPECT_EQ(worker_words("run", args, 1, 1),
              (Words{"run", "wf", "--", "--on", "slurm", "--seed", "1", "--workers", "1"}));
}

TEST(WorkerWords, AFlagWithoutValueTakesNoWordWithIt) {
    // --recover and --json take no value: the word after them stays.
    EXPECT_EQ(worker_words("run", {"--json", "wf"}, 5, 3),
              (Words{"run", "wf", "--seed", "5", "--workers", "3"}));
}

TEST(CheckedPlacement, LocalIsTheDefault) {
    EXPECT_EQ(checked_placement("run", ""), "local");
    EXPECT_EQ(checked_placement("run", "local"), "local");
}

TEST(CheckedPlacement, AnUnknownPlaceIsAnInputErrorNamingTheCommand) {
    try {
        checked_placement("run-scenarios", "cloud");
        FAIL() << "no error";
    } catch (const InputError &e) {
        EXPECT_NE(std::string(e.what()).find("run-scenarios: --on 'cloud'"), std::string::npos)
            << e.what();
    }
}

TEST(SettingsDigest, EmptyForTheEmbeddedSettings) {
    EXPECT_EQ(settings_digest(""), "");
}

}  // namespace
}  // namespace sbx::cluster
