// install-autopurge's schedule: the command it runs, the units, the cron line, the folder.
#include <gtest/gtest.h>

#include <cstdlib>

#include "cluster/autopurge_units.hpp"
#include "util/temp_dir.hpp"

namespace sbx::cluster {
namespace {

PurgeCommand command() {
    return {"/opt/sbx/bin/sandbox-runner", "/home/a b/settings.yaml", "/var/lib/sbx"};
}

TEST(PurgeUnits, EveryWordIsShellQuoted) {
    EXPECT_EQ(purge_command_line(command()),
              "'/opt/sbx/bin/sandbox-runner' --config '/home/a b/settings.yaml' --data-dir "
              "'/var/lib/sbx' purge-stale");
    EXPECT_EQ(purge_command_line({"/bin/sr", "", "/d"}), "'/bin/sr' --data-dir '/d' purge-stale");
}

TEST(PurgeUnits, TheServiceRunsTheCommandAndTheCronLineEveryHour) {
    EXPECT_NE(
        purge_service_unit(command()).find("ExecStart=" + purge_command_line(command()) + "\n"),
        std::string::npos);
    EXPECT_NE(purge_timer_unit().find("OnCalendar=hourly\n"), std::string::npos);
    EXPECT_EQ(purge_cron_line(command()),
              "0 * * * * " + purge_command_line(command()) + " >/dev/null 2>&1\n");
}

TEST(PurgeUnits, WrittenIntoTheFolderGiven) {
    const TempDir dir(std::filesystem::temp_directory_path(), "units-");
    write_purge_units(dir.path() / "sub", command());
    EXPECT_TRUE(std::filesystem::is_regular_file(dir.path() / "sub" / kPurgeService));
    EXPECT_TRUE(std::filesystem::is_regular_file(dir.path() / "sub" / kPurgeTimer));
}

TEST(PurgeUnits, UserUnitsFollowXdgConfigHome) {
    EXPECT_EQ(purge_unit_dir(true), "/etc/systemd/system");
    const char *kept = std::getenv("XDG_CONFIG_HOME");
    const std::string before = kept != nullptr ? kept : "";
    ::setenv("XDG_CONFIG_HOME", "/cfg", 1);
    EXPECT_EQ(purge_unit_dir(false), "/cfg/systemd/user");
    // A relative XDG_CONFIG_HOME is ignored (the base directory rules): HOME decides.
    ::setenv("XDG_CONFIG_HOME", "relative", 1);
    EXPECT_EQ(purge_unit_dir(false).filename(), "user");
    EXPECT_NE(purge_unit_dir(false).string().find("/.config/systemd/user"), std::string::npos);
    if (kept != nullptr) {
        ::setenv("XDG_CONFIG_HOME", before.c_str(), 1);
    } else {
        ::unsetenv("XDG_CONFIG_HOME");
    }
}

}  // namespace
}  // namespace sbx::cluster
