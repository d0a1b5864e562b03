// A valid settings file parses to exactly the expected model; defaults and lookups.
#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include <filesystem>
#include <string>

#include "config/load_settings.hpp"
#include "util/errors.hpp"

namespace sbx::config {
namespace {

std::string full_file() {
    return SBX_CONFIG_GOOD_DIR "/full_settings.yaml";
}

std::string at(int line, int column) {
    return full_file() + ":" + std::to_string(line) + ":" + std::to_string(column);
}

class FullSettings : public ::testing::Test {
  protected:
    static void SetUpTestSuite() { settings_ = new Settings(load_settings_file(full_file())); }
    static void TearDownTestSuite() {
        delete settings_;
        settings_ = nullptr;
    }
    static const Settings &s() { return *settings_; }

  private:
    static Settings *settings_;
};

Settings *FullSettings::settings_ = nullptr;

TEST_F(FullSettings, TopLevelScalars) {
    EXPECT_EQ(s().source, full_file());
    EXPECT_EQ(s().plugin_dirs, (std::vector<std::string>{"plugins", "/opt/sandbox/plugins"}));
    ASSERT_EQ(s().plugin_dir_locations.size(), 2u);
    EXPECT_EQ(s().plugin_dir_locations[1].str(), at(2, 24));
    EXPECT_EQ(s().data_dir, "/var/lib/sandbox");
    EXPECT_EQ(s().executor, "docker");
    EXPECT_EQ(s().executor_where.str(), at(4, 11));
    EXPECT_EQ(s().stub_strategy, "faker");
    EXPECT_EQ(s().stub_strategy_where.str(), at(5, 16));
    EXPECT_EQ(s().injectors, (std::vector<std::string>{"netem", "cpu_spike"}));
    ASSERT_EQ(s().injector_locations.size(), 2u);
    EXPECT_EQ(s().injector_locations[1].str(), at(6, 20));
    EXPECT_EQ(s().metrics, (std::vector<std::string>{"process_metrics", "latency"}));
    ASSERT_EQ(s().metric_locations.size(), 2u);
    EXPECT_EQ(s().metric_locations[0].str(), at(7, 11));
    EXPECT_EQ(s().predictor, "holt");
    EXPECT_EQ(s().predictor_where.str(), at(8, 12));
    EXPECT_EQ(s().workers, 3u);
    EXPECT_TRUE(s().keep_workspaces);
    EXPECT_EQ(s().log_level, "debug");
    EXPECT_TRUE(s().json_logs);
    EXPECT_EQ(s().targets, (std::vector<std::string>{"bin/*", "tools/kvtool"}));
    EXPECT_EQ(s().keyword_profiles.at("database"),
              (std::vector<std::string>{"high_latency_api", "concurrency_spike"}));
    EXPECT_TRUE(s().keyword_profiles.at("cache").empty());
}

TEST_F(FullSettings, PluginConfigsKeepJsonTypesAndLocations) {
    ASSERT_EQ(s().plugins.size(), 2u);
    const PluginConfig &local = s().plugins.at("local");
    EXPECT_EQ(local.value, nlohmann::json::parse(R"({"default_timeout_ms": 30000,
        "limits": {"memory": "512Mi", "pids": 64}, "mounts": ["/tmp", "/data"]})"));
    EXPECT_EQ(local.key_where.str(), at(14, 3));
    EXPECT_EQ(local.where.str(), at(15, 5));
    EXPECT_EQ(local.locations.at("").str(), at(15, 5));
    EXPECT_EQ(local.locations.at("/default_timeout_ms").str(), at(15, 25));
    EXPECT_EQ(local.locations.at("/limits/pids").str(), at(16, 35));
    EXPECT_EQ(local.locations.at("/mounts/1").str(), at(17, 20));
    EXPECT_EQ(s().plugins.at("netem").value, nlohmann::json::object());
}

TEST_F(FullSettings, PresetsAreJsonObjects) {
    ASSERT_EQ(s().presets.size(), 2u);
    const nlohmann::json &tight = s().presets[0];
    EXPECT_EQ(tight.at("MEMORY_LIMIT"), "512mb");
    EXPECT_EQ(tight.at("CPU_LIMIT"), 0.5);
    EXPECT_EQ(tight.at("PIDS_LIMIT"), 64);
    EXPECT_EQ(tight.at("PACKET_LOSS"), "5%");
    EXPECT_EQ(tight.at("FAILURE_MODES"), nlohmann::json::array({"network_partition", "cpu_spike"}));
    EXPECT_EQ(tight.at("BROKEN_AUTH"), true);
    EXPECT_EQ(tight.at("CUSTOM_FLAG"), "yes");  // quoted: stays a string
    EXPECT_EQ(s().presets[1].at("NETWORK_LATENCY_MS"), 200);
    ASSERT_EQ(s().preset_locations.size(), 2u);
    EXPECT_EQ(s().preset_locations[0].str(), at(20, 5));
    EXPECT_EQ(s().preset_locations[1].str(), at(32, 5));
}

TEST_F(FullSettings, Scenarios) {
    ASSERT_EQ(s().scenarios.size(), 2u);
    EXPECT_EQ(s().scenarios[0].first, "normal");
    EXPECT_EQ(s().scenarios[0].second, nlohmann::json::object());
    EXPECT_EQ(s().scenarios[1].first, "tight_memory");
    EXPECT_EQ(
        s().scenarios[1].second,
        nlohmann::json::parse(R"({"MEMORY_LIMIT": "256Mi", "FAILURE_MODES": "memory,timeout"})"));
    EXPECT_EQ(s().scenario_locations[1].str(), at(35, 5));
}

TEST_F(FullSettings, Workflows) {
    ASSERT_EQ(s().workflows.size(), 2u);
    const Workflow &w = s().workflows[0];
    EXPECT_EQ(w.id, 42);
    EXPECT_EQ(w.name, "kv-import");
    EXPECT_EQ(w.executor, "local");
    EXPECT_EQ(w.executor_where.str(), at(40, 15));
    EXPECT_EQ(w.baseline, "kv-import-v1");
    EXPECT_EQ(w.baseline_where.str(), at(41, 15));
    EXPECT_EQ(w.impact, "critical");
    EXPECT_TRUE(w.services.empty());
    EXPECT_EQ(w.where.str(), at(38, 5));
    ASSERT_EQ(w.steps.size(), 2u);

    const Workflow &old = s().workflows[1];
    EXPECT_EQ(old.id, 7);
    EXPECT_EQ(old.executor, "");
    EXPECT_EQ(old.baseline, "");
    EXPECT_EQ(old.impact, "standard");
    ASSERT_EQ(old.services.size(), 1u);
    const Service &db = old.services[0];
    EXPECT_EQ(db.name, "db");
    EXPECT_EQ(db.run, (std::vector<std::string>{"./bin/fake-db", "--port", "{{port}}"}));
    EXPECT_EQ(db.probe, Service::Probe::http);
    EXPECT_EQ(db.http_path, "/health");
    EXPECT_EQ(db.ready_timeout_ms, 5000);
    EXPECT_EQ(db.env, (std::map<std::string, std::string>{{"MODE", "test"}}));
    EXPECT_EQ(db.files, (std::map<std::string, std::string>{{"db.conf", "port {{port}}"}}));
    EXPECT_EQ(old.service_scope, ServiceScope::cell);
    EXPECT_EQ(w.service_scope, ServiceScope::run);
}

TEST_F(FullSettings, StepWithEverything) {
    const Step &step = s().workflows[0].steps[0];
    EXPECT_EQ(step.name, "import");
    EXPECT_EQ(step.run, (std::vector<std::string>{"./bin/kvtool", "import", "{{input.file}}",
                                                  "--retries", "3"}));
    EXPECT_EQ(step.stdin_text, "{{input.payload}}");
    EXPECT_EQ(step.env,
              (std::map<std::string, std::string>{{"MODE", "{{input.mode}}"}, {"LANG", "C"}}));
    EXPECT_EQ(step.files,
              (std::map<std::string, std::string>{{"data/{{input.file}}", "{{input.payload}}"}}));
    EXPECT_EQ(step.expect.exit_code, 0);
    EXPECT_EQ(step.expect.status, RunStatus::ok);
    EXPECT_EQ(step.expect.stdout_contains, "imported");
    ASSERT_TRUE(step.timeout_s.has_value());
    EXPECT_DOUBLE_EQ(*step.timeout_s, 1.5);
    EXPECT_EQ(step.where.str(), at(45, 9));

    ASSERT_EQ(step.inputs.size(), 4u);  // in the order written
    const InputSlot &payload = step.inputs[0];
    EXPECT_EQ(payload.name, "payload");
    EXPECT_EQ(payload.type, "json");
    EXPECT_EQ(payload.example, nlohmann::json::parse(R"({"id": 1, "name": "a"})"));
    EXPECT_TRUE(payload.required);
    EXPECT_EQ(payload.where.str(), at(51, 11));
    EXPECT_EQ(step.inputs[1].name, "file");
    EXPECT_FALSE(step.inputs[1].required);
    EXPECT_EQ(step.inputs[2].type, "enum");
    EXPECT_EQ(step.inputs[2].values, (std::vector<std::string>{"fast", "safe"}));
    EXPECT_EQ(step.inputs[2].default_value, "safe");
    EXPECT_EQ(step.inputs[3].type, "int");
    EXPECT_EQ(step.inputs[3].min, 1.0);
    EXPECT_EQ(step.inputs[3].max, 10.0);
    EXPECT_EQ(step.inputs[3].example, 3);
}

TEST_F(FullSettings, StepDefaults) {
    const Step &step = s().workflows[0].steps[1];
    EXPECT_EQ(step.name, "step2");
    EXPECT_FALSE(step.expect.exit_code.has_value());  // exit_code: any
    EXPECT_EQ(step.expect.status, RunStatus::timed_out);
    EXPECT_FALSE(step.stdin_text.has_value());
    EXPECT_FALSE(step.timeout_s.has_value());
    EXPECT_TRUE(step.inputs.empty());
}

TEST_F(FullSettings, FindWorkflowByNameOrId) {
    ASSERT_NE(s().find_workflow("kv-import"), nullptr);
    EXPECT_EQ(s().find_workflow("kv-import")->id, 42);
    ASSERT_NE(s().find_workflow("7"), nullptr);
    EXPECT_EQ(s().find_workflow("7")->name, "kv-import-v1");
    EXPECT_EQ(s().find_workflow("42")->name, "kv-import");
    EXPECT_EQ(s().find_workflow("kv"), nullptr);
    EXPECT_EQ(s().find_workflow("0"), nullptr);
    EXPECT_EQ(s().find_workflow("42x"), nullptr);
    EXPECT_EQ(s().find_workflow(""), nullptr);
}

TEST(LoadSettingsFile, UpstreamsOfAWorkflow) {
    const std::string file = SBX_CONFIG_GOOD_DIR "/upstreams.yaml";
    const Settings settings = load_settings_file(file);
    ASSERT_EQ(settings.workflows.size(), 2u);
    const auto &upstreams = settings.workflows[0].upstreams;
    ASSERT_EQ(upstreams.size(), 3u);
    EXPECT_EQ(upstreams[0].name, "api");
    EXPECT_EQ(upstreams[0].listen, "127.0.0.1:18080");
    EXPECT_EQ(upstreams[0].target, "127.0.0.1:8080");
    EXPECT_EQ(upstreams[0].where.str(), file + ":5:9");
    EXPECT_EQ(upstreams[1].name, "Cache_2");
    EXPECT_EQ(upstreams[1].listen, "[::1]:0");
    EXPECT_EQ(upstreams[1].target, "cache.internal:6379");
    EXPECT_EQ(upstreams[1].where.str(), file + ":8:9");
    EXPECT_EQ(upstreams[2].listen, "[::1]:0") << "port 0 may repeat: any free port";
    EXPECT_TRUE(settings.workflows[1].upstreams.empty());
}

TEST(LoadSettingsText, PredictorsReplaceOrEditTheComparedList) {
    EXPECT_EQ(load_settings_text("predictors: [mine]\n", "p.yaml").predictors,
              std::vector<std::string>{"mine"});
    EXPECT_EQ(load_settings_text("predictors: [+mine, -holt]\n", "p.yaml").predictors,
              (std::vector<std::string>{"ema", "linear", "mine"}));
    EXPECT_TRUE(load_settings_text("predictors: []\n", "p.yaml").predictors.empty());
    try {
        (void)load_settings_text("predictor: auto\npredictors: [ema, ema]\n", "p.yaml");
        FAIL() << "a predictor listed twice must be refused";
    } catch (const sbx::InputError &e) {
        EXPECT_NE(std::string(e.what()).find("p.yaml:2:"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("'ema' is listed twice"), std::string::npos)
            << e.what();
    }
}

TEST(LoadSettingsText, EmptyTextGivesDefaults) {
    for (const char *text : {"", "# only a comment\n", "---\n"}) {
        Settings s = load_settings_text(text, "empty.yaml");
        EXPECT_EQ(s.source, "empty.yaml");
        EXPECT_TRUE(s.plugin_dirs.empty());
        EXPECT_EQ(s.data_dir, "sandbox_data");
        EXPECT_EQ(s.executor, "local");
        EXPECT_EQ(s.executor_where.str(), "built-in default");
        EXPECT_EQ(s.stub_strategy, "normal");
        EXPECT_EQ(s.metrics, (std::vector<std::string>{"process_metrics", "extended"}));
        EXPECT_EQ(s.metric_locations.size(), s.metrics.size());
        EXPECT_EQ(s.predictor, "auto");
        EXPECT_EQ(s.predictors, (std::vector<std::string>{"ema", "linear", "holt"}));
        EXPECT_EQ(s.workers, std::max(1u, std::thread::hardware_concurrency()));
        EXPECT_FALSE(s.keep_workspaces);
        EXPECT_EQ(s.log_level, "info");
        EXPECT_FALSE(s.json_logs);
        EXPECT_TRUE(s.workflows.empty());
        EXPECT_TRUE(s.scenarios.empty());
    }
}

TEST(LoadSettingsText, WorkersAutoIsAtLeastOne) {
    EXPECT_GE(load_settings_text("workers: auto\n", "t.yaml").workers, 1u);
}

TEST(LoadSettingsText, SourceNameAppearsInErrors) {
    try {
        load_settings_text("\nexecutor: [a]\n", "config/sandbox_settings.yaml (embedded)");
        FAIL() << "accepted a list as executor";
    } catch (const InputError &error) {
        EXPECT_EQ(std::string(error.what()),
                  "config/sandbox_settings.yaml (embedded):2:11: executor must be a single value, "
                  "not a list; write executor: local");
    }
}

TEST(LoadSettingsText, UnquotedTemplateGetsAQuotingHint) {
    const char *text =
        "workflows:\n"
        "  - name: w\n"
        "    steps:\n"
        "      - {run: [cat, {{input.file}}], inputs: {file: {type: path}}}\n";
    try {
        load_settings_text(text, "t.yaml");
        FAIL() << "accepted an unquoted template";
    } catch (const InputError &error) {
        EXPECT_NE(std::string(error.what()).find("t.yaml:4:21:"), std::string::npos)
            << error.what();
        EXPECT_NE(std::string(error.what()).find("a template must be quoted"), std::string::npos)
            << error.what();
    }
}

TEST(LoadSettingsText, ListSlotTakesAListOfTextExampleAndDefault) {
    const char *text =
        "workflows:\n"
        "  - name: w\n"
        "    steps:\n"
        "      - run: [cp, \"{{input.files}}\", out/]\n"
        "        inputs: {files: {type: list, example: [a.txt, b.txt], default: [3, true]}}\n";
    const Settings settings = load_settings_text(text, "t.yaml");
    const InputSlot &files = settings.workflows.at(0).steps.at(0).inputs.at(0);
    EXPECT_EQ(files.type, "list");
    EXPECT_EQ(files.example, nlohmann::json({"a.txt", "b.txt"}));
    EXPECT_EQ(files.default_value, nlohmann::json({3, true}));  // items reach argv as their text
}

TEST(LoadSettingsText, MergeKeysReuseAnchoredMappings) {
    const char *text =
        "workflows:\n"
        "  - name: a\n"
        "    steps:\n"
        "      - &defaults {run: [./tool], timeout: 5s, expect: {status: OK}}\n"
        "      - {<<: *defaults, name: fast, timeout: 1s}\n";
    Settings s = load_settings_text(text, "t.yaml");
    const Step &fast = s.workflows.at(0).steps.at(1);
    EXPECT_EQ(fast.name, "fast");
    EXPECT_EQ(fast.run, std::vector<std::string>{"./tool"});
    EXPECT_DOUBLE_EQ(fast.timeout_s.value(), 1.0);  // written beside the merge: wins
}

TEST(LoadSettingsText, Utf8IsKeptAndInvalidBytesAreRejected) {
    EXPECT_EQ(load_settings_text("data_dir: /srv/café\n", "t.yaml").data_dir, "/srv/café");
    try {
        load_settings_text("data_dir: é/\xff\n", "t.yaml");
        FAIL() << "accepted a byte that is not UTF-8";
    } catch (const InputError &error) {
        EXPECT_EQ(std::string(error.what()).rfind("t.yaml:1:13: this byte is not valid UTF-8", 0),
                  0u)
            << error.what();
    }
}

// A user file that extends the defaults: its keys replace the default's, '+' items add to a
// list, and the locations say which file each value came from.
TEST(LoadSettingsText, ExtendsDefaultKeepsWhatTheFileDoesNotSay) {
    const DefaultSettings defaults{
        "executor: local\nworkers: 3\nmetrics: [process_metrics, extra_a]\n"
        "injectors: [cpu_spike]\npresets: [{SCENARIO_NAME: base}]\n",
        "default.yaml"};
    const auto s = load_settings_text(
        "extends: default\nworkers: 1\nmetrics: [+mine, +theirs]\npresets: [{SCENARIO_NAME: "
        "own}]\n",
        "user.yaml", &defaults);
    EXPECT_EQ(s.source, "user.yaml");
    EXPECT_EQ(s.workers, 1u);                                       // replaced
    EXPECT_EQ(s.injectors, std::vector<std::string>{"cpu_spike"});  // kept
    EXPECT_EQ(s.metrics,
              (std::vector<std::string>{"process_metrics", "extra_a", "mine", "theirs"}));
    ASSERT_EQ(s.metric_locations.size(), 4u);
    EXPECT_EQ(s.metric_locations[1].str(), "default.yaml:3:28");
    EXPECT_EQ(s.metric_locations[2].str(), "user.yaml:3:11");
    ASSERT_EQ(s.presets.size(), 1u);  // a list without '+' replaces the default's
    EXPECT_EQ(s.presets[0].value("SCENARIO_NAME", ""), "own");

    // Without extends, '+' adds to the built-in list.
    const auto plain = load_settings_text("metrics: [+mine]\n", "user.yaml");
    EXPECT_EQ(plain.metrics, (std::vector<std::string>{"process_metrics", "extended", "mine"}));
}

// In metrics and injectors '-' takes an item out, in the order written, so -x, +y, +x puts
// y before x, and an id the list lacks is kept as left out (a drop-in active by default may
// have it); paths may start with '-'.
TEST(LoadSettingsText, MinusItemsTakeOutAndMoveItems) {
    const DefaultSettings defaults{
        "injectors: [cpu_spike, fault_proxy, timeout]\nplugin_dirs: [a, b]\n", "default.yaml"};
    const auto s = load_settings_text(
        "extends: default\ninjectors: [-fault_proxy, +network, +fault_proxy, -timeout, "
        "-dropped_in]\nmetrics: [-process_metrics]\n",
        "user.yaml", &defaults);
    EXPECT_EQ(s.injectors, (std::vector<std::string>{"cpu_spike", "network", "fault_proxy"}));
    ASSERT_EQ(s.injector_locations.size(), 3u);
    EXPECT_EQ(s.injector_locations[0].str(), "default.yaml:1:13");
    EXPECT_EQ(s.injector_locations[1].str(), "user.yaml:2:27");
    std::vector<std::string> left_out;
    for (const auto &[id, where] : s.injectors_left_out) {
        left_out.push_back(id + "@" + where.str());
    }
    EXPECT_EQ(left_out,
              (std::vector<std::string>{"timeout@user.yaml:2:51", "dropped_in@user.yaml:2:61"}));
    EXPECT_EQ(s.metrics, std::vector<std::string>{"extended"});  // the built-in list's other
    ASSERT_EQ(s.metrics_left_out.size(), 1u);
    EXPECT_EQ(s.metrics_left_out[0].first, "process_metrics");

    // Paths and globs may start with '-': there it is no edit.
    const auto dirs =
        load_settings_text("extends: default\nplugin_dirs: [-c]\n", "user.yaml", &defaults);
    EXPECT_EQ(dirs.plugin_dirs, std::vector<std::string>{"-c"});
}

TEST(LoadSettingsText, BadExtendsAndMixedListsAreErrorsWithALocation) {
    const DefaultSettings defaults{"metrics: [process_metrics]\n", "default.yaml"};
    const auto message = [&](const std::string &yaml, const DefaultSettings *base) {
        try {
            (void)load_settings_text(yaml, "user.yaml", base);
        } catch (const InputError &e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_EQ(message("extends: defaults\n", &defaults)
                  .rfind("user.yaml:1:10: extends: 'defaults' "
                         "is not a base to extend",
                         0),
              0u)
        << message("extends: defaults\n", &defaults);
    EXPECT_NE(message("extends: default\n", nullptr).find("these are the default settings"),
              std::string::npos);
    const auto mixed = message("metrics: [+a, b]\n", &defaults);
    EXPECT_NE(mixed.find("user.yaml:1:15: metrics mixes items that edit the default list (+a)"),
              std::string::npos)
        << mixed;
    const auto twice =
        message("extends: default\nmetrics: [+process_metrics, +process_metrics]\n", &defaults);
    EXPECT_NE(twice.find("user.yaml:2:29: 'process_metrics' is listed twice in metrics"),
              std::string::npos)
        << twice;
}

TEST(LoadSettingsFile, MissingFileIsInputError) {
    try {
        load_settings_file("/nonexistent/sandbox_settings.yaml");
        FAIL() << "read a missing file";
    } catch (const InputError &error) {
        EXPECT_EQ(std::string(error.what()),
                  "/nonexistent/sandbox_settings.yaml: cannot read the settings file (No such "
                  "file or directory); check the path given to --config");
    }
    EXPECT_THROW(load_settings_file(SBX_CONFIG_GOOD_DIR), InputError);  // a directory
}

}  // namespace
}  // namespace sbx::config
