// The `broken_auth` injector: a real target that compares its credentials to the expected
// ones fails under BROKEN_AUTH and passes without; files changed in place come back after
// teardown, and after a SIGKILLed host through sweep().
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <chrono>

#include "json_log.hpp"
#include "resource_injector_fixture.hpp"

namespace sbx::injectors_test {
namespace {

json broken_auth_preset() {
    return {{"BROKEN_AUTH", "1"}};
}
constexpr const char kToken[] = "s3cr3t-Token_42";

// A target that exits 0 only when $API_TOKEN and the token file hold the expected values.
json checking_spec(const std::string &token_file) {
    return {{"argv",
             {"sh", "-c",
              std::string("[ \"$API_TOKEN\" = '") + kToken + "' ] && [ \"$(cat '" + token_file +
                  "')\" = 'file-token-7' ] && echo authenticated"}},
            {"env", {{"API_TOKEN", kToken}, {"PLAIN_SETTING", "value-1"}}}};
}

// Same length, and at each position a character of the same kind (digit, lower, upper,
// other) that differs wherever it is a letter or digit.
void expect_same_shape_but_wrong(const std::string &wrong, const std::string &right) {
    ASSERT_EQ(wrong.size(), right.size());
    for (std::size_t i = 0; i < right.size(); ++i) {
        const auto kind = [](char c) {
            return std::isdigit(static_cast<unsigned char>(c))   ? 'd'
                   : std::islower(static_cast<unsigned char>(c)) ? 'l'
                   : std::isupper(static_cast<unsigned char>(c)) ? 'u'
                                                                 : c;
        };
        EXPECT_EQ(kind(wrong[i]), kind(right[i])) << wrong << " vs " << right;
        if (std::isalnum(static_cast<unsigned char>(right[i]))) {
            EXPECT_NE(wrong[i], right[i]) << wrong << " vs " << right;
        }
    }
}

TEST_F(ResourceInjectorTest, BrokenAuthFailsATargetThatChecksItsTokenAndOnlyThen) {
    const auto injector = broken_auth_plugin()->create({{"files", {"token.txt"}}});
    json spec = checking_spec("token.txt");
    spec["files"] = {{"token.txt", "file-token-7"}};

    const InjectedRun normal = run_injected(*injector, json::object(), spec);
    EXPECT_FALSE(normal.response["active"]);
    EXPECT_EQ(normal.result["status"], "OK") << normal.result.dump(2);
    EXPECT_EQ(normal.result["stdout"], "authenticated\n");

    const InjectedRun broken = run_injected(*injector, broken_auth_preset(), spec);
    ASSERT_TRUE(broken.response["active"]) << broken.response.dump();
    EXPECT_EQ(broken.result["status"], "RE") << broken.result.dump(2);
    EXPECT_EQ(broken.result["stdout"], "");
    expect_same_shape_but_wrong(broken.spec()["env"]["API_TOKEN"], kToken);
    expect_same_shape_but_wrong(broken.spec()["files"]["token.txt"], "file-token-7");
    EXPECT_EQ(broken.spec()["env"]["PLAIN_SETTING"], "value-1") << "not a credential";
    EXPECT_EQ(broken.response["broken_auth"]["variables"], json::array({"API_TOKEN"}));
    EXPECT_EQ(broken.response["broken_auth"]["files"], json::array({"token.txt (spec)"}));

    // FAILURE_MODES broken_auth does the same; BROKEN_AUTH 0 does nothing.
    EXPECT_EQ(run_injected(*injector, {{"FAILURE_MODES", "broken_auth"}}, spec).result["status"],
              "RE");
    EXPECT_EQ(run_injected(*injector, {{"BROKEN_AUTH", "0"}}, spec).result["status"], "OK");
    EXPECT_THROW((void)injector->prepare(request({{"BROKEN_AUTH", "maybe"}}, spec).dump()),
                 plugins::PluginCallError);
}

TEST_F(ResourceInjectorTest, BrokenAuthMatchesNamesByPatternIgnoringCase) {
    const auto injector = broken_auth_plugin()->create(json::object());
    const json env = {{"github_token", "ghp_abc123"}, {"DB_PASSWORD", "hunter2"},
                      {"MY_API_KEY", "K-9"},          {"AUTHORIZATION", "Bearer xyz"},
                      {"CLIENT_SECRET", "--"},        {"HOME_DIR", "/home/a"}};
    const json response = json::parse(injector->prepare(
        request(broken_auth_preset(), {{"argv", {"true"}}, {"env", env}}).dump()));
    injector->teardown(response["state"].dump());
    const json &changed = response["spec"]["env"];
    for (const char *name : {"github_token", "DB_PASSWORD", "MY_API_KEY", "AUTHORIZATION"}) {
        expect_same_shape_but_wrong(changed[name], env[name]);
    }
    EXPECT_EQ(changed["CLIENT_SECRET"], "--");  // nothing to change: reported as such
    EXPECT_EQ(response["broken_auth"]["unchanged"],
              json::array({"CLIENT_SECRET: no letter or digit to change"}));
    EXPECT_EQ(changed["HOME_DIR"], "/home/a");
    // Seeded: the same run gets the same wrong values.
    const json again = json::parse(injector->prepare(
        request(broken_auth_preset(), {{"argv", {"true"}}, {"env", env}}).dump()));
    injector->teardown(again["state"].dump());
    EXPECT_EQ(again["spec"]["env"], changed);
}

TEST_F(ResourceInjectorTest, BrokenAuthRestoresFilesChangedInPlace) {
    // A host file (absolute) and a file of a shared workspace (relative), both in place.
    const std::filesystem::path host_file = std::filesystem::path(state_dir_) / "host-token";
    write_file(host_file, "host-Secret-99\n");
    ::chmod(host_file.c_str(), 0640);
    write_file(std::filesystem::path(workspace_) / "token.txt", "file-token-7");
    const auto injector =
        broken_auth_plugin()->create({{"files", {host_file.string(), "token.txt", "absent"}}});
    json spec = checking_spec("token.txt");
    spec["argv"][2] = spec["argv"][2].get<std::string>() + "; cat '" + host_file.string() + "'";
    spec["workspace"] = workspace_;
    spec["filesystem"] = "host";  // the host file lives in this test's /tmp folder
    const InjectedRun run = run_injected(*injector, broken_auth_preset(), spec);
    EXPECT_EQ(run.result["status"], "OK") << "cat ran last: " << run.result.dump(2);
    const std::string seen = run.result["stdout"];
    ASSERT_EQ(seen.find("authenticated"), std::string::npos) << seen;
    expect_same_shape_but_wrong(seen, "host-Secret-99\n");
    EXPECT_EQ(run.response["broken_auth"]["unchanged"],
              json::array({workspace_ + "/absent: no such file"}));
    // Teardown put both back, mode included, and left no record behind.
    EXPECT_EQ(read_file(host_file), "host-Secret-99\n");
    EXPECT_EQ(read_file(std::filesystem::path(workspace_) / "token.txt"), "file-token-7");
    struct stat info {};
    ASSERT_EQ(::stat(host_file.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 07777, 0640U);
    EXPECT_TRUE(std::filesystem::is_empty(std::filesystem::path(state_dir_) / "broken_auth"));
}

TEST_F(ResourceInjectorTest, BrokenAuthSweepRestoresWhatAKilledHostLeft) {
    const std::filesystem::path host_file = std::filesystem::path(state_dir_) / "host-token";
    write_file(host_file, "original-Token-1");
    const json config = {{"files", {host_file.string()}}};
    const json crash_request = request(broken_auth_preset(), {{"argv", {"true"}}});
    const std::string log = state_dir_ + "/crash.log";
    const int pid =
        test::spawn_background({SBX_INJECTOR_CRASH_HOST_PATH, SBX_BROKEN_AUTH_INJECTOR_PATH,
                                config.dump(), crash_request.dump()},
                               {}, "", log);
    const std::string line = test::wait_for_json_line(log);
    ASSERT_NE(line.find("\"active\":true"), std::string::npos) << read_file(log);
    EXPECT_NE(read_file(host_file), "original-Token-1") << "the crash host did not change it";

    const auto injector = broken_auth_plugin()->create(config);
    // While that host lives, its record is left alone.
    EXPECT_EQ(json::parse(injector->sweep(json{{"state_dir", state_dir_}}.dump()))["removed"],
              json::array());
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    // A dry run says what it would do, and does nothing.
    const json listed =
        json::parse(injector->sweep(json{{"state_dir", state_dir_}, {"dry_run", true}}.dump()));
    EXPECT_EQ(listed["removed"], json::array({"restored " + host_file.string()}));
    EXPECT_NE(read_file(host_file), "original-Token-1");
    const json swept = json::parse(injector->sweep(json{{"state_dir", state_dir_}}.dump()));
    EXPECT_EQ(swept["removed"], json::array({"restored " + host_file.string()}));
    EXPECT_EQ(read_file(host_file), "original-Token-1");
    EXPECT_TRUE(std::filesystem::is_empty(std::filesystem::path(state_dir_) / "broken_auth"));
}

}  // namespace
}  // namespace sbx::injectors_test
