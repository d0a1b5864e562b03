// The hourly `purge-stale` schedule of `install-autopurge`: systemd timer and service units
// (written and enabled), or the cron line where systemd is not running.
#pragma once

#include <filesystem>
#include <string>

namespace sbx::cluster {

inline constexpr const char *kPurgeService = "sandbox-runner-purge.service";
inline constexpr const char *kPurgeTimer = "sandbox-runner-purge.timer";

struct PurgeCommand {
    std::string binary;    // absolute path of sandbox-runner
    std::string config;    // absolute path of --config, "" for the default lookup
    std::string data_dir;  // absolute path of the data directory
};

// The command line the schedule runs, each word shell-quoted.
std::string purge_command_line(const PurgeCommand &command);
// sandbox-runner-purge.service: a oneshot running the purge.
std::string purge_service_unit(const PurgeCommand &command);
// sandbox-runner-purge.timer: hourly, catching up after downtime (Persistent=true).
std::string purge_timer_unit();
// A crontab line running the purge at minute 0 of every hour.
std::string purge_cron_line(const PurgeCommand &command);

// systemd is the init system when /run/systemd/system exists (sd_booted's test).
bool systemd_running();
// Where the units go: /etc/systemd/system with `system`, else the user's unit folder
// ($XDG_CONFIG_HOME or ~/.config, then systemd/user); InputError when HOME is not set.
std::filesystem::path purge_unit_dir(bool system);
// Writes the service and the timer into `dir`, made when missing; EnvironmentError when a
// file cannot be written.
void write_purge_units(const std::filesystem::path &dir, const PurgeCommand &command);
// `systemctl [--user] daemon-reload`, then `enable --now` of the timer; EnvironmentError
// naming the command to run by hand when either fails.
void enable_purge_timer(bool system);

}  // namespace sbx::cluster
