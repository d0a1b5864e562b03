// The hourly `purge-stale` schedule: systemd timer and service units, or the cron line where
// systemd is not running.
#pragma once

#include <string>

namespace sbx::cli {

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

}  // namespace sbx::cli
