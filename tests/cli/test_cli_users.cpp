// Per-user state: two users run the real `sandbox-runner run` at the same time in one
// shared, sticky TMPDIR (as /tmp is), each in a private folder of its own; XDG_RUNTIME_DIR
// is used when TMPDIR is unset; a folder squatted by another uid, a symlink or an open
// folder is refused with exit 2 and what to do. Acting as other users needs root (setpriv);
// without it those tests fail saying so. A build tree they cannot reach (a checkout under a
// private home) is staged where they can (reachable_by_others.hpp).
#include <pwd.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "cli_fixture.hpp"
#include "reachable_by_others.hpp"
#include "state_folder.hpp"

namespace {

namespace fs = std::filesystem;

constexpr const char *kSetpriv = "/usr/bin/setpriv";
constexpr uid_t kNobody = 65534;

// A uid no account has: the product must not need a passwd entry.
uid_t unnamed_uid() {
    for (uid_t uid = 61000; uid < 65000; ++uid) {
        if (::getpwuid(uid) == nullptr) {
            return uid;
        }
    }
    return 0;
}

std::string passed_runs(const std::string &database) {
    sqlite3 *db = nullptr;
    std::string count = "no database " + database;
    if (sqlite3_open_v2(database.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt *stmt = nullptr;
        if (sqlite3_prepare_v2(db, "SELECT count(*) FROM runs WHERE passed = 1", -1, &stmt,
                               nullptr) == SQLITE_OK &&
            sqlite3_step(stmt) == SQLITE_ROW) {
            count = reinterpret_cast<const char *>(sqlite3_column_text(stmt, 0));
        }
        sqlite3_finalize(stmt);
    }
    sqlite3_close(db);
    return count;
}

std::string describe(const std::string &path) {
    struct stat info {};
    if (::lstat(path.c_str(), &info) != 0) {
        return path + " missing";
    }
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(info.st_mode & 07777));
    return path + " uid " + std::to_string(info.st_uid) + " mode " + mode +
           (S_ISDIR(info.st_mode) ? " folder" : " not a folder");
}

// The workspace folder (run-*, not its .owner file) a host made in `state_folder`, or "".
std::string workspace_in(const std::string &state_folder) {
    std::error_code error;
    for (const auto &entry : fs::directory_iterator(state_folder, error)) {
        const auto name = entry.path().filename().string();
        if (name.rfind("run-", 0) == 0 && name.find('.') == std::string::npos) {
            return entry.path().string();
        }
    }
    return "";
}

class PerUserState : public sbx::test::CliTest {
  protected:
    PerUserState() : CliTest(RunBy::others_too) {}

    void SetUp() override {
        CliTest::SetUp();
        // Other users reach the settings and their homes through the scratch folder.
        fs::permissions(dir_, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                  fs::perms::others_read | fs::perms::others_exec);
        shared_tmp_ = dir_ + "/shared-tmp";
        fs::create_directories(shared_tmp_);
        fs::permissions(shared_tmp_, fs::perms::all | fs::perms::sticky_bit);
        // Each run waits in its workspace for `go`, which the test writes once both users'
        // workspaces exist: proof that the two ran at the same time, with no timing.
        write_settings(R"(
injectors: []
presets: [{SCENARIO_NAME: plain, TIMEOUT: 120s}]
workflows:
  - name: rendezvous
    steps:
      - run: [/bin/sh, -c, 'until [ -e go ]; do sleep 0.05; done; echo met']
        expect: {exit_code: 0, stdout_contains: met}
  - name: quick
    steps: [{run: [/bin/true]}]
)");
    }

    // A home for `uid` in the scratch folder: its working and data folder.
    std::string home_for(uid_t uid) {
        std::string home = dir_ + "/home-" + std::to_string(uid);
        fs::create_directories(home);
        if (::chown(home.c_str(), uid, uid) != 0) {
            ADD_FAILURE() << "cannot chown " << home << " to " << uid << ": "
                          << std::strerror(errno);
        }
        fs::permissions(home, fs::perms::owner_all);
        return home;
    }

    // setpriv ... -- env [-u VAR]... HOME=<home> [VAR=value]... sandbox-runner --config ...
    // ARGS (env takes its options before the assignments).
    std::vector<std::string> as_user(uid_t uid, const std::string &home,
                                     const std::vector<std::string> &unset,
                                     const std::vector<std::string> &set,
                                     const std::vector<std::string> &args) const {
        std::vector<std::string> argv = {kSetpriv,
                                         "--reuid=" + std::to_string(uid),
                                         "--regid=" + std::to_string(uid),
                                         "--clear-groups",
                                         "--",
                                         "/usr/bin/env"};
        for (const auto &name : unset) {
            argv.insert(argv.end(), {"-u", name});
        }
        argv.push_back("HOME=" + home);
        argv.insert(argv.end(), set.begin(), set.end());
        argv.insert(argv.end(), {binary_, "--config", settings_, "--data-dir", home + "/data"});
        argv.insert(argv.end(), args.begin(), args.end());
        return argv;
    }

    // Fails (never skips) when this process cannot act as another user, saying why.
    bool can_act_as_others() {
        if (::geteuid() != 0) {
            ADD_FAILURE() << "this test acts as two other users (uid " << kNobody
                          << " and one without an account) through setpriv, which needs root; "
                             "run it as root (CI does)";
            return false;
        }
        if (::access(kSetpriv, X_OK) != 0) {
            ADD_FAILURE() << kSetpriv << " is missing; install util-linux";
            return false;
        }
        const auto reach = sbx::test::run_command(
            {kSetpriv, "--reuid=" + std::to_string(kNobody), "--regid=" + std::to_string(kNobody),
             "--clear-groups", "--", binary_, "plugins", "list"},
            {}, dir_);
        if (reach.exit_code != 0) {
            ADD_FAILURE() << "uid " << kNobody << " cannot run " << binary_ << " (exit "
                          << reach.exit_code << ": " << reach.err
                          << "): other users must reach the build tree, or the copy the test "
                             "stages under /tmp when the mode bits say they cannot "
                             "(reachable_by_others.hpp); an ACL may deny what the bits allow";
            return false;
        }
        return true;
    }

    sbx::test::CommandResult run_as_self(const std::vector<std::string> &args,
                                         const std::string &tmpdir) {
        std::vector<std::string> argv = {binary_, "--config", settings_, "--data-dir",
                                         dir_ + "/data"};
        argv.insert(argv.end(), args.begin(), args.end());
        return sbx::test::run_command(argv, {{"TMPDIR", tmpdir}}, dir_);
    }

    std::string shared_tmp_;
};

TEST_F(PerUserState, TwoUsersRunSideBySideInOneSharedTmpdir) {
    ASSERT_TRUE(can_act_as_others());
    const uid_t users[] = {kNobody, unnamed_uid()};
    ASSERT_NE(users[1], 0U) << "no uid between 61000 and 65000 is free of an account";
    std::vector<std::string> homes;
    std::vector<int> hosts;
    for (const uid_t uid : users) {
        homes.push_back(home_for(uid));
        hosts.push_back(sbx::test::spawn_background(
            as_user(uid, homes.back(), {}, {"TMPDIR=" + shared_tmp_},
                    {"run", "--workflow", "rendezvous", "--runs", "1", "--workers", "1"}),
            {}, homes.back(), dir_ + "/host-" + std::to_string(uid) + ".log"));
    }
    // Both hosts are inside their run at once: each has its workspace in its own folder.
    std::vector<std::string> workspaces(2);
    (void)sbx::test::wait_until(
        [&] {
            for (size_t i = 0; i < 2; ++i) {
                workspaces[i] = workspace_in(sbx::test::state_folder_in(shared_tmp_, users[i]));
            }
            return !workspaces[0].empty() && !workspaces[1].empty();
        },
        std::chrono::seconds(120), std::chrono::milliseconds(50));
    for (size_t i = 0; i < 2; ++i) {
        EXPECT_FALSE(workspaces[i].empty())
            << "uid " << users[i] << " never started its run; its log:\n"
            << std::ifstream(dir_ + "/host-" + std::to_string(users[i]) + ".log").rdbuf();
        if (!workspaces[i].empty()) {
            std::ofstream(workspaces[i] + "/go") << "go\n";
        }
    }
    for (size_t i = 0; i < 2; ++i) {
        if (workspaces[i].empty()) {
            ::kill(hosts[i], SIGTERM);
        }
        int status = 0;
        ASSERT_EQ(::waitpid(hosts[i], &status, 0), hosts[i]);
        const std::string log = dir_ + "/host-" + std::to_string(users[i]) + ".log";
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
            << "uid " << users[i] << " status " << status << "; its log:\n"
            << std::ifstream(log).rdbuf();
        EXPECT_EQ(passed_runs(homes[i] + "/data/metrics.db"), "1") << "uid " << users[i];
        // Private: the user's own folder, closed to everyone else.
        const std::string folder = sbx::test::state_folder_in(shared_tmp_, users[i]);
        EXPECT_EQ(describe(folder),
                  folder + " uid " + std::to_string(users[i]) + " mode 0700 folder");
        // Each user's check-resources looks in its own folder and finds no workspace left.
        // (Other kinds are machine-wide, such as another host's cgroups: not this test's.)
        const auto left =
            sbx::test::run_command(as_user(users[i], homes[i], {}, {"TMPDIR=" + shared_tmp_},
                                           {"check-resources", "--json"}),
                                   {}, homes[i]);
        EXPECT_TRUE(left.exit_code == 0 || left.exit_code == 1)
            << "uid " << users[i] << ": " << left.out << left.err;
        EXPECT_EQ(left.out.find("\"workspace\""), std::string::npos)
            << "uid " << users[i] << ": " << left.out;
    }
}

TEST_F(PerUserState, WithoutTmpdirTheRuntimeDirHoldsTheState) {
    ASSERT_TRUE(can_act_as_others());
    const std::string home = home_for(kNobody);
    const std::string runtime = home + "/runtime";  // as systemd makes /run/user/<uid>
    fs::create_directories(runtime);
    ASSERT_EQ(::chown(runtime.c_str(), kNobody, kNobody), 0);
    fs::permissions(runtime, fs::perms::owner_all);
    const auto ran =
        sbx::test::run_command(as_user(kNobody, home, {"TMPDIR"}, {"XDG_RUNTIME_DIR=" + runtime},
                                       {"run", "--workflow", "quick", "--runs", "1"}),
                               {}, home);
    EXPECT_EQ(ran.exit_code, 0) << ran.out << ran.err;
    EXPECT_EQ(describe(runtime + "/sandbox-runner"),
              runtime + "/sandbox-runner uid " + std::to_string(kNobody) + " mode 0700 folder");
}

TEST_F(PerUserState, AFolderSquattedByAnotherUidIsRefused) {
    ASSERT_TRUE(can_act_as_others());
    const std::string folder = sbx::test::state_folder_in(shared_tmp_);
    fs::create_directories(folder);
    ASSERT_EQ(::chown(folder.c_str(), kNobody, kNobody), 0);
    fs::permissions(folder, fs::perms::owner_all);
    std::string refusal = "sandbox-runner: per-user state folder " + folder;
    refusal += " belongs to uid " + std::to_string(kNobody);
    refusal += ", not to you (uid " + std::to_string(::geteuid()) + ")";
    for (const std::vector<std::string> &args :
         {std::vector<std::string>{"run", "--workflow", "quick", "--runs", "1"},
          std::vector<std::string>{"check-resources"}, std::vector<std::string>{"purge-stale"}}) {
        const auto result = run_as_self(args, shared_tmp_);
        EXPECT_EQ(result.exit_code, 2) << args[0] << ": " << result.out << result.err;
        EXPECT_NE(result.err.find(refusal), std::string::npos) << args[0] << ": " << result.err;
        EXPECT_NE(result.err.find("have its owner or root remove it, or set TMPDIR to a folder "
                                  "of your own"),
                  std::string::npos)
            << result.err;
    }
    EXPECT_TRUE(fs::is_empty(folder)) << "something was made in the squatted folder";
}

TEST_F(PerUserState, ASymlinkInPlaceOfTheFolderIsRefusedAndNotFollowed) {
    const std::string elsewhere = dir_ + "/elsewhere";
    fs::create_directories(elsewhere);
    fs::permissions(elsewhere, fs::perms::owner_all);
    const std::string folder = sbx::test::state_folder_in(shared_tmp_);
    fs::create_directory_symlink(elsewhere, folder);
    const auto result = run_as_self({"run", "--workflow", "quick", "--runs", "1"}, shared_tmp_);
    EXPECT_EQ(result.exit_code, 2) << result.out << result.err;
    EXPECT_NE(result.err.find(folder +
                              " is a symbolic link, which could send your workspaces "
                              "anywhere; remove it (`rm " +
                              folder + "`)"),
              std::string::npos)
        << result.err;
    EXPECT_TRUE(fs::is_empty(elsewhere)) << "the link was followed";
}

TEST_F(PerUserState, AFolderOpenToOthersIsRefused) {
    const std::string folder = sbx::test::state_folder_in(shared_tmp_);
    fs::create_directories(folder);
    fs::permissions(folder, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                fs::perms::others_read | fs::perms::others_exec);
    const auto result = run_as_self({"run", "--workflow", "quick", "--runs", "1"}, shared_tmp_);
    EXPECT_EQ(result.exit_code, 2) << result.out << result.err;
    EXPECT_NE(result.err.find(folder +
                              " is open to other users (mode 0755); make it private "
                              "(`chmod 700 " +
                              folder + "`)"),
              std::string::npos)
        << result.err;
}

// A checkout under a private home, rehearsed without one: the build's runtime files,
// hard-linked into a folder of mode 0700 (as /root is), are out of uid 65534's reach;
// ReachableByOthers stages them where it runs them, and removes what it staged when it goes.
TEST_F(PerUserState, ABuildUnderAPrivateHomeIsStagedWhereOtherUsersRunIt) {
    ASSERT_TRUE(can_act_as_others());
    const fs::path build = fs::path(SBX_BINARY).parent_path().parent_path();
    const fs::path hidden = fs::path(dir_) / "private-home" / "build";
    fs::create_directories(hidden / "bin");
    fs::permissions(hidden.parent_path(), fs::perms::owner_all);
    for (const char *program : {"sandbox-runner", "sbx-plugin-host"}) {
        fs::create_hard_link(build / "bin" / program, hidden / "bin" / program);
    }
    fs::copy(build / "plugins", hidden / "plugins",
             fs::copy_options::recursive | fs::copy_options::create_hard_links);
    const std::string hidden_binary = (hidden / "bin" / "sandbox-runner").string();
    const auto as_nobody = [&](const std::string &binary) {
        return sbx::test::run_command(
            {kSetpriv, "--reuid=" + std::to_string(kNobody), "--regid=" + std::to_string(kNobody),
             "--clear-groups", "--", binary, "plugins", "list"},
            {}, dir_);
    };
    EXPECT_NE(as_nobody(hidden_binary).exit_code, 0) << "the rehearsal hides nothing";
    std::string staged_root;
    {
        const sbx::test::ReachableByOthers reachable(hidden_binary);
        ASSERT_NE(reachable.binary(), hidden_binary);
        staged_root = fs::path(reachable.binary()).parent_path().parent_path().parent_path();
        const auto listed = as_nobody(reachable.binary());
        EXPECT_EQ(listed.exit_code, 0) << listed.out << listed.err;
        EXPECT_NE(listed.out.find("local"), std::string::npos) << listed.out;
        EXPECT_FALSE(fs::exists(staged_root + "/build/plugins/executors/local/CMakeFiles"))
            << "object files staged";
    }
    EXPECT_FALSE(fs::exists(staged_root)) << staged_root << " left behind";
}

}  // namespace
