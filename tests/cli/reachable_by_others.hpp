// What a test that acts as other users (setpriv to uid 65534 and the like) needs them to
// reach: the built binary with the files a run finds beside it, and the test's own folder.
#pragma once

#include <string>

namespace sbx::test {

// A checkout under a private home (/root, or any $HOME of Debian 12's default mode 0700)
// hides the build tree and the suite's TMPDIR inside it from every other user. The product
// is right to fail there (an unreachable binary is the user's setup), so the test brings
// what the other users need to them instead: a fresh folder under /tmp, open to everyone to
// search, holding a staged copy of the build's runtime files when the build is hidden, and
// the test's own folder when its TMPDIR is. The folder goes when this object does. Where
// everything is reachable already, nothing is staged and the test runs as it always did.
class ReachableByOthers {
  public:
    // `binary` is the built <build>/bin/sandbox-runner.
    explicit ReachableByOthers(const std::string &binary);
    ~ReachableByOthers();
    ReachableByOthers(const ReachableByOthers &) = delete;
    ReachableByOthers &operator=(const ReachableByOthers &) = delete;

    // sandbox-runner as other users run it: `binary`, or its staged copy.
    const std::string &binary() const { return binary_; }
    // A fresh folder for the test (mode 0700, the test opens it as it needs) in its TMPDIR,
    // or in the staged folder when others cannot reach the TMPDIR; it goes with the test's
    // fixture, or with this object at the latest.
    std::string make_folder(const std::string &prefix) const;

  private:
    std::string staged_;  // the folder under /tmp, or "" when nothing had to be staged
    std::string binary_;
};

// Whether a user who is neither the owner nor in the group of anything on the way can
// search every folder down to `path`, and read `path` when it is a file (the mode bits;
// ACLs are not read).
bool others_can_reach(const std::string &path);

}  // namespace sbx::test
