// Tracker settings from the environment: defaults, the tolerance fallback, and errors that
// name the variable.
#include <gtest/gtest.h>

#include <map>

#include "scoring/tracker_settings.hpp"
#include "util/errors.hpp"

namespace sbx::scoring {
namespace {

using Variables = std::map<std::string, std::string>;

TrackerSettings from(const Variables &vars) {
    return tracker_settings_from_environment([&vars](const char *name) -> const char * {
        auto found = vars.find(name);
        return found == vars.end() ? nullptr : found->second.c_str();
    });
}

std::string error_of(const Variables &vars) {
    try {
        from(vars);
    } catch (const InputError &error) {
        return error.what();
    }
    return "(accepted)";
}

TEST(TrackerSettings, Defaults) {
    const TrackerSettings settings = from({});
    EXPECT_EQ(settings.window, 5u);
    EXPECT_DOUBLE_EQ(settings.tolerance, 0.01);
    EXPECT_EQ(settings.roi_cycles, 3);
    EXPECT_DOUBLE_EQ(settings.entropy_threshold, 0);
}

TEST(TrackerSettings, ToleranceFromEitherVariable) {
    EXPECT_DOUBLE_EQ(from({{"SANDBOX_ROI_TOLERANCE", "0.05"}}).tolerance, 0.05);
    EXPECT_DOUBLE_EQ(from({{"ROI_THRESHOLD", "0.02"}}).tolerance, 0.02);
    EXPECT_DOUBLE_EQ(from({{"SANDBOX_ROI_TOLERANCE", "0.05"}, {"ROI_THRESHOLD", "0.02"}}).tolerance,
                     0.05);
    // An empty variable counts as unset, so the fallback applies.
    EXPECT_DOUBLE_EQ(from({{"SANDBOX_ROI_TOLERANCE", ""}, {"ROI_THRESHOLD", "0.02"}}).tolerance,
                     0.02);
    EXPECT_DOUBLE_EQ(from({{"SANDBOX_ROI_TOLERANCE", "+1e-3"}}).tolerance, 0.001);
    EXPECT_DOUBLE_EQ(from({{"SANDBOX_ROI_TOLERANCE", "0"}}).tolerance, 0);
}

TEST(TrackerSettings, CyclesAndEntropyThreshold) {
    const TrackerSettings settings = from({{"ROI_CYCLES", "4"}, {"ENTROPY_THRESHOLD", "0.2"}});
    EXPECT_EQ(settings.roi_cycles, 4);
    EXPECT_DOUBLE_EQ(settings.entropy_threshold, 0.2);
    EXPECT_FALSE(settings.roi_confidence.has_value()) << "no equivalence test unless asked";
    EXPECT_EQ(from({{"ROI_CONFIDENCE", "0.9"}}).roi_confidence, 0.9);
    EXPECT_EQ(error_of({{"ROI_CONFIDENCE", "90"}}),
              "environment variable ROI_CONFIDENCE='90': must be a confidence between 0 and 1 "
              "(exclusive); write e.g. ROI_CONFIDENCE=0.95");
}

TEST(TrackerSettings, ToleranceErrorsNameTheVariable) {
    EXPECT_EQ(error_of({{"SANDBOX_ROI_TOLERANCE", "abc"}}),
              "environment variable SANDBOX_ROI_TOLERANCE='abc': must be a number of at least 0; "
              "write e.g. SANDBOX_ROI_TOLERANCE=0.01");
    EXPECT_EQ(error_of({{"ROI_THRESHOLD", "-1"}}),
              "environment variable ROI_THRESHOLD='-1': must be a number of at least 0; write "
              "e.g. ROI_THRESHOLD=0.01");
    for (const char *bad : {"0,5", " 1", "1 ", "inf", "nan", "0x10", "+-1", "1e999"}) {
        EXPECT_NE(error_of({{"SANDBOX_ROI_TOLERANCE", bad}}), "(accepted)") << bad;
    }
}

TEST(TrackerSettings, CyclesMustBeAWholeNumberOfAtLeastOne) {
    for (const char *bad : {"0", "-2", "2.5", "abc", "99999999999"}) {
        const std::string message = error_of({{"ROI_CYCLES", bad}});
        EXPECT_EQ(message.rfind(std::string("environment variable ROI_CYCLES='") + bad +
                                    "': must be a whole number of at least 1; set it to how "
                                    "many consecutive cycles",
                                0),
                  0u)
            << message;
    }
}

TEST(TrackerSettings, EntropyThresholdErrors) {
    EXPECT_EQ(error_of({{"ENTROPY_THRESHOLD", "-0.1"}}),
              "environment variable ENTROPY_THRESHOLD='-0.1': must be a number of at least 0; "
              "write e.g. ENTROPY_THRESHOLD=0.05 (0 turns the ceiling off)");
}

}  // namespace
}  // namespace sbx::scoring
