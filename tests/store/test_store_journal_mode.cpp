// Which filesystem holds a database, read from a mount table in /proc/self/mountinfo's
// format: a network one gets a rollback journal instead of WAL. (A real 9p share is
// exercised by tools/slurm-multinode, whose guest records its shard there.)
#include <gtest/gtest.h>

#include <sstream>

#include "store/journal_mode.hpp"

namespace {

using sbx::store::mount_type;

// A node's table: a local root, an NFS home, a 9p share, a FUSE mount whose point holds a
// space (escaped as \040), and a tmpfs mounted over a folder of the NFS home.
const char *const kMountinfo =
    "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
    "40 22 0:45 / /home rw,relatime shared:20 - nfs4 server:/home rw,vers=4.2\n"
    "41 22 0:29 / /tmp/mn/shared rw,relatime - 9p shared rw,trans=virtio\n"
    "42 22 0:50 / /mnt/remote\\040box rw - fuse.sshfs me@box: rw,user_id=0\n"
    "43 40 0:51 / /home/me/fast rw - tmpfs tmpfs rw\n";

std::string type_of(const std::string &path) {
    std::istringstream table(kMountinfo);
    return mount_type(path, table);
}

TEST(JournalMode, TheMountHoldingAPathIsTheLongestPointThatPrefixesIt) {
    EXPECT_EQ(type_of("/var/lib/data"), "ext4");
    EXPECT_EQ(type_of("/home/me/sandbox_data"), "nfs4");
    EXPECT_EQ(type_of("/home"), "nfs4");
    EXPECT_EQ(type_of("/tmp/mn/shared/jobs/s1/attempt-1/shard-0"), "9p");
    EXPECT_EQ(type_of("/home/me/fast/db"), "tmpfs") << "a mount over a folder of another";
    EXPECT_EQ(type_of("/homework"), "ext4") << "a prefix of the name is not a parent folder";
}

TEST(JournalMode, EscapedMountPointsAreReadAsTheirNames) {
    EXPECT_EQ(type_of("/mnt/remote box/data"), "fuse.sshfs");
    EXPECT_EQ(type_of("/mnt/remote"), "ext4");
}

TEST(JournalMode, ALaterMountOnTheSamePointHidesTheEarlierOne) {
    std::istringstream table(
        "22 1 8:1 / / rw - ext4 /dev/sda1 rw\n"
        "30 22 0:40 / /data rw - ext4 /dev/sdb1 rw\n"
        "31 30 0:41 / /data rw - nfs server:/data rw\n");
    EXPECT_EQ(mount_type("/data/metrics.db", table), "nfs");
}

TEST(JournalMode, ATmpfsIsLocalAndKeepsWal) {
    // /dev/shm is a tmpfs on every Linux machine, whatever holds the build tree.
    EXPECT_EQ(sbx::store::network_filesystem("/dev/shm"), "");
    EXPECT_STREQ(sbx::store::journal_mode_for("/dev/shm"), "WAL");
}

TEST(JournalMode, NetworkTypesAreKnownAndLocalFuseOnesAreNotTakenForThem) {
    for (const char *type : {"nfs", "nfs4", "9p", "cifs", "lustre", "gpfs", "beegfs", "ceph",
                             "virtiofs", "fuse.sshfs", "fuse.s3fs"}) {
        EXPECT_TRUE(sbx::store::network_type(type)) << type;
    }
    for (const char *type : {"ext4", "xfs", "btrfs", "tmpfs", "overlay", "zfs",
                             "fuse.fuse-overlayfs", "fuse.lxcfs", ""}) {
        EXPECT_FALSE(sbx::store::network_type(type)) << type;
    }
}

}  // namespace
