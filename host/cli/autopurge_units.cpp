// Unit files and the cron line for install-autopurge.
#include "autopurge_units.hpp"

#include "reports/shell_reproducer.hpp"

namespace sbx::cli {

std::string purge_command_line(const PurgeCommand &command) {
    std::string line = reports::shell_quote(command.binary);
    if (!command.config.empty()) {
        line += " --config " + reports::shell_quote(command.config);
    }
    return line + " --data-dir " + reports::shell_quote(command.data_dir) + " purge-stale";
}

std::string purge_service_unit(const PurgeCommand &command) {
    return "[Unit]\n"
           "Description=sandbox-runner: remove what crashed runs left behind\n"
           "\n"
           "[Service]\n"
           "Type=oneshot\n"
           // systemd splits ExecStart like a shell: the quoted words stay whole.
           "ExecStart=" +
           purge_command_line(command) + "\n";
}

std::string purge_timer_unit() {
    return "[Unit]\n"
           "Description=sandbox-runner: purge-stale every hour\n"
           "\n"
           "[Timer]\n"
           "OnCalendar=hourly\n"
           "Persistent=true\n"
           "RandomizedDelaySec=5min\n"
           "\n"
           "[Install]\n"
           "WantedBy=timers.target\n";
}

std::string purge_cron_line(const PurgeCommand &command) {
    return "0 * * * * " + purge_command_line(command) + " >/dev/null 2>&1\n";
}

}  // namespace sbx::cli
