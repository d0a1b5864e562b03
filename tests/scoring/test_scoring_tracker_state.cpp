// Saving and restoring the tracker: the JSON state round trip, and the flags file that
// lets a later run skip converged modules.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "scoring/tracker.hpp"
#include "util/errors.hpp"
#include "util/temp_dir.hpp"

namespace sbx::scoring {
namespace {

// Window 1, one cycle: a module converges on its first delta within the tolerance.
const TrackerSettings kQuick{1, 0.01, 1, 0.5, std::nullopt};

std::string read(const std::filesystem::path &path) {
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

class TrackerFiles : public ::testing::Test {
  protected:
    std::filesystem::path write(const std::string &name, const std::string &text) {
        std::filesystem::path path = dir_.path() / name;
        std::ofstream(path) << text;
        return path;
    }
    std::string load_error(const std::string &text) {
        const std::filesystem::path path = write("bad.flags", text);
        Tracker tracker;
        try {
            tracker.load_flags(path);
        } catch (const InputError &error) {
            return error.what();
        }
        return "(accepted)";
    }

    TempDir dir_{std::filesystem::temp_directory_path(), "sbx-tracker-"};
};

TEST(TrackerState, JsonRoundTrip) {
    Tracker tracker(TrackerSettings{2, 0.01, 2, 0.5, std::nullopt});
    tracker.update(0.5, 0.5, {"a", "b"}, {{"latency_ms", 10}});
    tracker.update(0.5, 0.5, {"a"}, {});
    tracker.update(0.5, 0.5, {"a"}, {});
    tracker.update_entropy("b", 0.25);
    tracker.record_raroi("c", 0.75);
    ASSERT_TRUE(tracker.converged("a"));
    ASSERT_EQ(tracker.streak("a"), 2);

    const Tracker restored = Tracker::from_json(tracker.to_json(), tracker.settings());
    EXPECT_EQ(restored.to_json(), tracker.to_json());
    EXPECT_TRUE(restored.converged("a"));
    EXPECT_EQ(restored.streak("a"), 2);
    EXPECT_EQ(restored.deltas(), tracker.deltas());
    EXPECT_DOUBLE_EQ(restored.metrics_history()[0].at("latency_ms"), 10);
    EXPECT_EQ(restored.rankings()[0].module, "c");
}

TEST(TrackerState, MalformedStateIsAnInputError) {
    try {
        Tracker::from_json({{"deltas", "not a list"}}, {});
        FAIL() << "accepted a malformed state";
    } catch (const InputError &error) {
        EXPECT_EQ(std::string(error.what()).rfind("the saved tracker state is not valid (", 0), 0u)
            << error.what();
    }
}

TEST_F(TrackerFiles, FlagsRoundTrip) {
    Tracker tracker(kQuick);
    tracker.update(0, 0, {"stable", "other"}, {});
    tracker.update(0, 1, {"moving"}, {});
    const std::filesystem::path path = dir_.path() / "workflow.flags";
    tracker.save_flags(path);
    EXPECT_EQ(nlohmann::json::parse(read(path)),
              (nlohmann::json{{"converged", {"other", "stable"}}}));
    // Only the flags file is left: the temporary file was renamed over it.
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir_.path()),
                            std::filesystem::directory_iterator()),
              1);

    Tracker next;
    next.load_flags(path);
    EXPECT_EQ(next.converged_modules(), (std::vector<std::string>{"other", "stable"}));
    EXPECT_FALSE(next.converged("moving"));
}

TEST_F(TrackerFiles, SavingReplacesTheOldFlags) {
    const std::filesystem::path path = write("w.flags", "{\"converged\": [\"old\"]}");
    Tracker tracker(kQuick);
    tracker.update(0, 0, {"new"}, {});
    tracker.save_flags(path);
    EXPECT_EQ(nlohmann::json::parse(read(path)), (nlohmann::json{{"converged", {"new"}}}));
}

TEST_F(TrackerFiles, MissingFlagsFileMarksNothing) {
    Tracker tracker;
    tracker.load_flags(dir_.path() / "none.flags");
    EXPECT_TRUE(tracker.converged_modules().empty());
}

TEST_F(TrackerFiles, MalformedFlagsFiles) {
    const std::string path = (dir_.path() / "bad.flags").string();
    // Line 2, column 21 is the "]" after the trailing comma.
    const std::string syntax = load_error("{\n  \"converged\": [\"a\",]\n}\n");
    EXPECT_EQ(syntax.rfind(path + ":2:21: the flags file is not valid JSON", 0), 0u) << syntax;
    EXPECT_EQ(load_error("[\"a\"]"),
              path +
                  ": a flags file must be an object with a \"converged\" list; write "
                  "{\"converged\": [\"module\", ...]} or delete the file to let the tracker "
                  "recompute convergence");
    EXPECT_EQ(load_error("{\"converged\": [1]}")
                  .rfind(path + ": the \"converged\" list must hold module names, not 1;", 0),
              0u);
}

TEST_F(TrackerFiles, UnwritableFlagsPathIsAnEnvironmentError) {
    const std::filesystem::path file = write("plain-file", "");
    Tracker tracker;
    EXPECT_THROW(tracker.save_flags(file / "w.flags"), EnvironmentError);
}

}  // namespace
}  // namespace sbx::scoring
