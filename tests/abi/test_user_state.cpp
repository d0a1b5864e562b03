// sbx/user_state.hpp, the per-user folder rule the host and the executor plugins share:
// which folder (TMPDIR, else XDG_RUNTIME_DIR when it is the caller's, else /tmp), and
// which folders are refused (a symlink, another uid's, open to others, not a folder).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sbx/user_state.hpp>

#include <filesystem>
#include <fstream>

#include "command.hpp"

namespace {

namespace fs = std::filesystem;
using sbx::user_state::locate;
using sbx::user_state::open_private;
using sbx::user_state::WhenMissing;

class UserState : public ::testing::Test {
  protected:
    void SetUp() override { dir_ = sbx::test::make_temp_dir("sbx-user-state-"); }
    void TearDown() override { fs::remove_all(dir_); }

    std::string private_folder(const std::string &name) {
        std::string path = dir_ + "/" + name;
        fs::create_directory(path);
        fs::permissions(path, fs::perms::owner_all);
        return path;
    }

    std::string dir_;
    uid_t uid_ = ::geteuid();
    std::string own_name_ = "sandbox-runner-" + std::to_string(::geteuid());
};

TEST_F(UserState, TmpdirComesFirstWithTheUidInTheName) {
    const std::string runtime = private_folder("runtime");
    EXPECT_EQ(locate("/scratch", runtime.c_str(), 1234), "/scratch/sandbox-runner-1234");
    EXPECT_EQ(locate("/scratch//", nullptr, 1234), "/scratch/sandbox-runner-1234");
    EXPECT_EQ(locate("/", nullptr, 1234), "/sandbox-runner-1234");
}

TEST_F(UserState, AnEmptyOrRelativeTmpdirIsIgnored) {
    EXPECT_EQ(locate("", nullptr, 1234), "/tmp/sandbox-runner-1234");
    EXPECT_EQ(locate("scratch", nullptr, 1234), "/tmp/sandbox-runner-1234");
}

TEST_F(UserState, TheCallersPrivateRuntimeDirIsNext) {
    const std::string runtime = private_folder("runtime");
    EXPECT_EQ(locate(nullptr, runtime.c_str(), uid_), runtime + "/sandbox-runner");
}

TEST_F(UserState, ARuntimeDirNotTheCallersOwnFallsBackToTmp) {
    const std::string runtime = private_folder("runtime");
    const std::string fallback = "/tmp/" + own_name_;
    // Inherited from another user (su, sudo -E): owned by someone else.
    EXPECT_EQ(locate(nullptr, runtime.c_str(), uid_ + 1),
              "/tmp/sandbox-runner-" + std::to_string(uid_ + 1));
    // Not private, as XDG_RUNTIME_DIR=/tmp would be.
    const std::string open = private_folder("open");
    fs::permissions(open, fs::perms::others_exec, fs::perm_options::add);
    EXPECT_EQ(locate(nullptr, open.c_str(), uid_), fallback);
    // A link, missing, relative.
    fs::create_directory_symlink(runtime, dir_ + "/link");
    EXPECT_EQ(locate(nullptr, (dir_ + "/link").c_str(), uid_), fallback);
    EXPECT_EQ(locate(nullptr, (dir_ + "/missing").c_str(), uid_), fallback);
    EXPECT_EQ(locate(nullptr, "runtime", uid_), fallback);
}

TEST_F(UserState, AMissingFolderIsMadePrivate) {
    const std::string path = dir_ + "/" + own_name_;
    const auto folder = open_private(path, uid_, WhenMissing::create);
    EXPECT_EQ(folder.refusal, "");
    EXPECT_TRUE(folder.exists);
    struct stat info {};
    ASSERT_EQ(::lstat(path.c_str(), &info), 0);
    EXPECT_TRUE(S_ISDIR(info.st_mode));
    EXPECT_EQ(info.st_mode & 0777, 0700U);
    EXPECT_EQ(info.st_uid, uid_);
    // Made once, then accepted as it is.
    EXPECT_EQ(open_private(path, uid_, WhenMissing::create).refusal, "");
}

TEST_F(UserState, LookingWithoutCreatingLeavesAMissingFolderMissing) {
    const std::string path = dir_ + "/" + own_name_;
    const auto folder = open_private(path, uid_, WhenMissing::leave);
    EXPECT_EQ(folder.refusal, "");
    EXPECT_FALSE(folder.exists);
    EXPECT_FALSE(fs::exists(fs::symlink_status(path)));
}

TEST_F(UserState, ASymlinkIsRefusedAndNotFollowed) {
    const std::string target = private_folder("target");
    const std::string path = dir_ + "/" + own_name_;
    fs::create_directory_symlink(target, path);
    std::string expected = "per-user state folder " + path;
    expected += " is a symbolic link, which could send your workspaces anywhere; remove it (`rm ";
    expected += path;
    expected +=
        "`), or set TMPDIR to a folder of your own (sandbox-runner then uses "
        "$TMPDIR/sandbox-runner-<uid>)";
    for (const auto missing : {WhenMissing::create, WhenMissing::leave}) {
        EXPECT_EQ(open_private(path, uid_, missing).refusal, expected);
    }
    // A dangling link is a link too.
    fs::remove(target);
    EXPECT_NE(open_private(path, uid_, WhenMissing::leave).refusal.find("symbolic link"),
              std::string::npos);
    EXPECT_FALSE(fs::exists(target)) << "the link was followed";
}

TEST_F(UserState, AnotherUsersFolderIsRefused) {
    const std::string path = private_folder(own_name_);
    // Seen by another uid, this folder belongs to someone else: as a squatter's would.
    const auto folder = open_private(path, uid_ + 1, WhenMissing::create);
    EXPECT_EQ(folder.refusal, "per-user state folder " + path + " belongs to uid " +
                                  std::to_string(uid_) + ", not to you (uid " +
                                  std::to_string(uid_ + 1) +
                                  "): whoever made it could read or steer your runs; have its "
                                  "owner or root remove it, or set TMPDIR to a folder of your "
                                  "own (sandbox-runner then uses $TMPDIR/sandbox-runner-<uid>)");
}

TEST_F(UserState, AFolderOpenToOthersIsRefused) {
    const std::string path = private_folder(own_name_);
    fs::permissions(path, fs::perms::group_read | fs::perms::group_exec, fs::perm_options::add);
    const auto folder = open_private(path, uid_, WhenMissing::create);
    EXPECT_NE(folder.refusal.find(path +
                                  " is open to other users (mode 0750); make it private "
                                  "(`chmod 700 " +
                                  path + "`)"),
              std::string::npos)
        << folder.refusal;
}

TEST_F(UserState, AFileInPlaceOfTheFolderIsRefused) {
    const std::string path = dir_ + "/" + own_name_;
    std::ofstream(path) << "not a folder\n";
    const auto folder = open_private(path, uid_, WhenMissing::create);
    EXPECT_NE(folder.refusal.find(path + " is not a folder; remove it"), std::string::npos)
        << folder.refusal;
}

TEST_F(UserState, AFolderThatCannotBeMadeSaysWhy) {
    const std::string path = dir_ + "/missing-parent/" + own_name_;
    const auto folder = open_private(path, uid_, WhenMissing::create);
    EXPECT_NE(folder.refusal.find(path + " cannot be created: No such file or directory; check "
                                         "that its parent exists and is writable"),
              std::string::npos)
        << folder.refusal;
}

}  // namespace
