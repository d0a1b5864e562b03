// `install-autopurge [--system] [--unit-dir DIR] [--print]`: runs `purge-stale` every hour
// — a systemd timer where systemd runs (user units by default, system units with
// --system), else the crontab line to add.
#include <boost/program_options.hpp>
#include <iostream>

#include "cli_context.hpp"
#include "cluster/autopurge_units.hpp"
#include "install_layout.hpp"
#include "option_parsing.hpp"
#include "util/errors.hpp"

namespace po = boost::program_options;

namespace sbx::cli {
namespace {

struct AutopurgeOptions {
    bool system = false;
    bool print = false;
    std::string unit_dir;  // write the units here and enable nothing
};

}  // namespace

int run_autopurge_command(CliContext &context, const std::vector<std::string> &args) {
    AutopurgeOptions options;
    po::options_description description("install-autopurge options");
    description.add_options()("system", po::bool_switch(&options.system),
                              "system units in /etc/systemd/system (needs root)")(
        "print", po::bool_switch(&options.print), "print what would be installed")(
        "unit-dir", po::value(&options.unit_dir), "write the units here, enable nothing");
    parse_options("install-autopurge", args, description);

    cluster::PurgeCommand command;
    command.binary = executable_path(context.options.program_path).string();
    command.config = context.options.config_path.empty()
                         ? std::string()
                         : std::filesystem::absolute(context.options.config_path).string();
    command.data_dir = std::filesystem::absolute(context.settings.data_dir).string();

    const bool units = !options.unit_dir.empty() || cluster::systemd_running();
    if (!units) {
        // No systemd (a container, a machine with another init): cron does the same job.
        std::cout << "# systemd is not running here; add this line with `crontab -e` to run "
                     "purge-stale every hour:\n"
                  << cluster::purge_cron_line(command);
        return kExitOk;
    }
    const std::filesystem::path dir = !options.unit_dir.empty()
                                          ? std::filesystem::path(options.unit_dir)
                                          : cluster::purge_unit_dir(options.system);
    const auto service = (dir / cluster::kPurgeService).string();
    const auto timer = (dir / cluster::kPurgeTimer).string();
    if (options.print) {
        std::cout << "# " << service << "\n"
                  << cluster::purge_service_unit(command) << "\n# " << timer << "\n"
                  << cluster::purge_timer_unit();
        return kExitOk;
    }
    cluster::write_purge_units(dir, command);
    std::cout << "wrote " << service << " and " << timer << "\n";
    if (!options.unit_dir.empty()) {
        return kExitOk;  // packaging or a test: enabling is someone else's step
    }
    cluster::enable_purge_timer(options.system);
    std::cout << "enabled " << cluster::kPurgeTimer << ": purge-stale runs every hour\n";
    return kExitOk;
}

}  // namespace sbx::cli
