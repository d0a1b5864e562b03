// install-autopurge: a systemd timer and service that run purge-stale hourly with this
// binary and data directory, or the crontab line where systemd is not running.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "cli_fixture.hpp"

namespace {

std::string read(const std::filesystem::path &path) {
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class Autopurge : public sbx::test::CliTest {};

TEST_F(Autopurge, UnitsRunThisBinaryOnThisDataDirEveryHour) {
    write_settings("workflows: []\n");
    const std::string units = dir_ + "/units";
    const auto result = runner({"install-autopurge", "--unit-dir", units});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const std::string service = read(units + "/sandbox-runner-purge.service");
    EXPECT_NE(service.find("Type=oneshot\n"), std::string::npos) << service;
    EXPECT_NE(service.find("ExecStart='" + std::string(SBX_BINARY) + "' --config '" + settings_ +
                           "' --data-dir '" + dir_ + "/data' purge-stale\n"),
              std::string::npos)
        << service;
    const std::string timer = read(units + "/sandbox-runner-purge.timer");
    EXPECT_NE(timer.find("OnCalendar=hourly\nPersistent=true\n"), std::string::npos) << timer;
    EXPECT_NE(timer.find("WantedBy=timers.target\n"), std::string::npos) << timer;
    // The command the unit runs works as written.
    const auto purge = runner({"purge-stale"});
    EXPECT_EQ(purge.exit_code, 0) << purge.err;
}

TEST_F(Autopurge, WithoutSystemdItPrintsTheCronLineElseTheUnits) {
    write_settings("workflows: []\n");
    const auto result = runner({"install-autopurge", "--print"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    if (std::filesystem::is_directory("/run/systemd/system")) {
        EXPECT_NE(result.out.find("OnCalendar=hourly"), std::string::npos) << result.out;
        EXPECT_FALSE(std::filesystem::exists(std::string(getenv("HOME")) +
                                             "/.config/systemd/user/sandbox-runner-purge.timer"))
            << "--print writes nothing";
    } else {
        EXPECT_NE(
            result.out.find("0 * * * * '" + std::string(SBX_BINARY) + "' --config '" + settings_ +
                            "' --data-dir '" + dir_ + "/data' purge-stale >/dev/null 2>&1\n"),
            std::string::npos)
            << result.out;
        EXPECT_NE(result.out.find("crontab -e"), std::string::npos) << result.out;
    }
    EXPECT_EQ(runner({"install-autopurge", "--unit-dir"}).exit_code, 2);
}

}  // namespace
