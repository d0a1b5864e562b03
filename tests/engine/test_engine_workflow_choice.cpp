// The workflow a command names (engine/workflow_choice): the settings' first, then those
// imported into metrics.db, by name or id.
#include <gtest/gtest.h>

#include "config/load_settings.hpp"
#include "engine/workflow_choice.hpp"
#include "store/workflow_table.hpp"
#include "util/errors.hpp"
#include "util/temp_dir.hpp"

namespace sbx::engine {
namespace {

namespace fs = std::filesystem;

config::Settings settings_with(const std::string &workflows, const fs::path &data_dir) {
    auto settings = config::load_settings_text(
        "data_dir: " + data_dir.string() + "\nworkflows:\n" + workflows, "test.yaml");
    return settings;
}

const char *const kOne = "  - name: one\n    steps:\n      - {name: s, run: [/bin/true]}\n";
const char *const kTwo = "  - name: two\n    steps:\n      - {name: s, run: [/bin/true]}\n";

std::string error_of(config::Settings &settings, const std::string &name) {
    try {
        choose_workflow(settings, "run", name);
    } catch (const InputError &e) {
        return e.what();
    }
    return "";
}

TEST(ChooseWorkflow, NoNameIsTheOnlyWorkflowOrAnError) {
    const TempDir data(fs::temp_directory_path(), "choice-");
    auto one = settings_with(kOne, data.path());
    EXPECT_EQ(choose_workflow(one, "run", "").name, "one");
    auto both = settings_with(std::string(kOne) + kTwo, data.path());
    EXPECT_EQ(error_of(both, ""), "run: name a workflow; test.yaml defines 2 workflows");
    EXPECT_EQ(choose_workflow(both, "run", "two").name, "two");
}

TEST(ChooseWorkflow, AnImportedWorkflowByNameOrId) {
    const TempDir data(fs::temp_directory_path(), "choice-");
    {
        store::Store store(data.path() / "metrics.db");
        store::import_workflow(
            store, {7, "two", "{name: two, steps: [{name: s, run: [/bin/true]}]}", "f.yaml", ""});
    }
    auto settings = settings_with(kOne, data.path());
    const auto &by_id = choose_workflow(settings, "run", "7");
    EXPECT_EQ(by_id.name, "two");
    EXPECT_EQ(by_id.id, 7);
    EXPECT_EQ(choose_workflow(settings, "run", "two").id, 7);
    const std::string error = error_of(settings, "three");
    EXPECT_NE(error.find("run: workflow 'three' is not defined in test.yaml nor imported into "),
              std::string::npos)
        << error;
    EXPECT_NE(error.find("; defined workflows: one, two (id 7)"), std::string::npos) << error;
}

}  // namespace
}  // namespace sbx::engine
