// Unit files and the cron line for install-autopurge, and their installation.
#include "cluster/autopurge_units.hpp"

#include <chrono>
#include <vector>

#include "util/atomic_file.hpp"
#include "util/command_output.hpp"
#include "util/errors.hpp"
#include "util/shell_word.hpp"

namespace sbx::cluster {
namespace {

// Whole or not at all (util/atomic_file): systemd never reads half a unit.
void write_unit(const std::filesystem::path &path, const std::string &text) {
    try {
        write_file_atomically(path, text);
    } catch (const EnvironmentError &e) {
        throw EnvironmentError(std::string("install-autopurge: ") + e.what() +
                               "; check the directory's permissions");
    }
}

// `systemctl [--user] WORDS...`; "" when it succeeded, else what it said. Through the spawn
// helper: a systemd that does not answer must not hang the command.
std::string systemctl_failure(bool system, std::vector<std::string> words) {
    words.insert(words.begin(), "systemctl");
    if (!system) {
        words.insert(words.begin() + 1, "--user");
    }
    const auto result = util::command_output(words, std::chrono::minutes(1));
    return result.ok() ? "" : result.failure();
}

}  // namespace

std::string purge_command_line(const PurgeCommand &command) {
    std::string line = shell_quote(command.binary);
    if (!command.config.empty()) {
        line += " --config " + shell_quote(command.config);
    }
    return line + " --data-dir " + shell_quote(command.data_dir) + " purge-stale";
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

bool systemd_running() {
    return std::filesystem::is_directory("/run/systemd/system");
}

std::filesystem::path purge_unit_dir(bool system) {
    if (system) {
        return "/etc/systemd/system";
    }
    const char *config_home = std::getenv("XDG_CONFIG_HOME");
    if (config_home != nullptr && *config_home == '/') {
        return std::filesystem::path(config_home) / "systemd" / "user";
    }
    const char *home = std::getenv("HOME");
    if (home == nullptr || *home == '\0') {
        throw InputError(
            "install-autopurge: HOME is not set, so there is no user unit "
            "directory; pass --system or --unit-dir DIR");
    }
    return std::filesystem::path(home) / ".config" / "systemd" / "user";
}

void write_purge_units(const std::filesystem::path &dir, const PurgeCommand &command) {
    write_unit(dir / kPurgeService, purge_service_unit(command));
    write_unit(dir / kPurgeTimer, purge_timer_unit());
}

void enable_purge_timer(bool system) {
    std::string failure = systemctl_failure(system, {"daemon-reload"});
    if (failure.empty()) {
        failure = systemctl_failure(system, {"enable", "--now", kPurgeTimer});
    }
    if (!failure.empty()) {
        throw EnvironmentError(
            std::string("install-autopurge: systemctl could not enable ") + kPurgeTimer + " (" +
            failure + "); the units are written, run `systemctl " + (system ? "" : "--user ") +
            "enable --now " + kPurgeTimer + "` by hand");
    }
}

}  // namespace sbx::cluster
