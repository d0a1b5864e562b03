// `install-autopurge [--system] [--unit-dir DIR] [--print]`: runs `purge-stale` every hour
// — a systemd timer where systemd runs (user units by default, system units with
// --system), else the crontab line to add.
#include <boost/program_options.hpp>
#include <cstdlib>
#include <fstream>
#include <iostream>

#include "autopurge_units.hpp"
#include "cli_context.hpp"
#include "install_layout.hpp"
#include "option_parsing.hpp"
#include "util/errors.hpp"

namespace po = boost::program_options;

namespace sbx::cli {
namespace {

constexpr const char *kService = "sandbox-runner-purge.service";
constexpr const char *kTimer = "sandbox-runner-purge.timer";

struct AutopurgeOptions {
    bool system = false;
    bool print = false;
    std::string unit_dir;  // write the units here and enable nothing
};

// systemd is the init system when this directory exists (sd_booted's test).
bool systemd_running() {
    return std::filesystem::is_directory("/run/systemd/system");
}

std::filesystem::path user_unit_dir() {
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

void write_unit(const std::filesystem::path &path, const std::string &text) {
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    std::ofstream out(path, std::ios::trunc);
    out << text;
    out.close();
    if (!out) {
        throw EnvironmentError("install-autopurge: cannot write " + path.string() +
                               "; check the directory's permissions");
    }
}

int run_systemctl(bool system, const std::string &arguments) {
    const std::string command =
        std::string("systemctl ") + (system ? "" : "--user ") + arguments + " 2>&1";
    return std::system(command.c_str());
}

}  // namespace

int run_autopurge_command(CliContext &context, const std::vector<std::string> &args) {
    AutopurgeOptions options;
    po::options_description description("install-autopurge options");
    description.add_options()("system", po::bool_switch(&options.system),
                              "system units in /etc/systemd/system (needs root)")(
        "print", po::bool_switch(&options.print), "print what would be installed")(
        "unit-dir", po::value(&options.unit_dir), "write the units here, enable nothing");
    parse_options("install-autopurge", args, description);

    PurgeCommand command;
    command.binary = executable_path(context.options.program_path).string();
    command.config = context.options.config_path.empty()
                         ? std::string()
                         : std::filesystem::absolute(context.options.config_path).string();
    command.data_dir = std::filesystem::absolute(context.settings.data_dir).string();

    const bool units = !options.unit_dir.empty() || systemd_running();
    if (!units) {
        // No systemd (a container, a machine with another init): cron does the same job.
        std::cout << "# systemd is not running here; add this line with `crontab -e` to run "
                     "purge-stale every hour:\n"
                  << purge_cron_line(command);
        return kExitOk;
    }
    const std::filesystem::path dir =
        !options.unit_dir.empty()
            ? std::filesystem::path(options.unit_dir)
            : (options.system ? std::filesystem::path("/etc/systemd/system") : user_unit_dir());
    if (options.print) {
        std::cout << "# " << (dir / kService).string() << "\n"
                  << purge_service_unit(command) << "\n# " << (dir / kTimer).string() << "\n"
                  << purge_timer_unit();
        return kExitOk;
    }
    write_unit(dir / kService, purge_service_unit(command));
    write_unit(dir / kTimer, purge_timer_unit());
    std::cout << "wrote " << (dir / kService).string() << " and " << (dir / kTimer).string()
              << "\n";
    if (!options.unit_dir.empty()) {
        return kExitOk;  // packaging or a test: enabling is someone else's step
    }
    if (run_systemctl(options.system, "daemon-reload") != 0 ||
        run_systemctl(options.system, std::string("enable --now ") + kTimer) != 0) {
        throw EnvironmentError(std::string("install-autopurge: systemctl could not enable ") +
                               kTimer + "; the units are written, run `systemctl " +
                               (options.system ? "" : "--user ") + "enable --now " + kTimer +
                               "` by hand");
    }
    std::cout << "enabled " << kTimer << ": purge-stale runs every hour\n";
    return kExitOk;
}

}  // namespace sbx::cli
