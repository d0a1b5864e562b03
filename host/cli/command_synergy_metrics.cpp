// `show-synergy [--window N] [--plot FILE.svg] [--json]`: the newest value of each
// synergy metric recorded in metrics.db, beside its exponential moving average over the
// last N values; --plot draws both as a bar chart. Reads only: with no database yet it
// says so and creates nothing.
#include <boost/program_options.hpp>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli_context.hpp"
#include "option_parsing.hpp"
#include "output_file.hpp"
#include "reports/synergy_summary.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"

namespace po = boost::program_options;

namespace sbx::cli {
namespace {

constexpr const char *kCommand = "show-synergy";

struct SynergyOptions {
    int window = 5;
    std::string plot;  // "" = no chart
    bool json = false;
};

SynergyOptions parse(const std::vector<std::string> &args) {
    SynergyOptions options;
    po::options_description description("show-synergy options");
    description.add_options()("window", po::value(&options.window),
                              "EMA over the last N values (default 5)")(
        "plot", po::value(&options.plot), "write a bar chart to FILE.svg")(
        "json", po::bool_switch(&options.json), "print JSON");
    const auto given = parse_options(kCommand, args, description);
    if (options.window < 1) {
        throw InputError(std::string(kCommand) + ": --window " + std::to_string(options.window) +
                         " is too small; pass 1 or more values to average, e.g. --window 5");
    }
    if (given.count("plot") != 0) {
        check_output_file(options.plot, std::string(kCommand) + ": --plot", "synergy.svg");
    }
    return options;
}

}  // namespace

int run_synergy_metrics_command(CliContext &context, const std::vector<std::string> &args) {
    const auto options = parse(args);
    const auto database = std::filesystem::path(context.settings.data_dir) / "metrics.db";
    const auto summaries = reports::summarize_synergy(database, options.window);

    if (options.json) {
        std::cout << reports::synergy_summary_json(summaries, options.window)
                         .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                  << '\n';
    } else if (summaries.empty()) {
        std::printf(
            "nothing recorded yet: no synergy values in %s; `run --all-workflows` and `run "
            "--sections` record them\n",
            database.string().c_str());
    } else {
        std::cout << reports::synergy_summary_table(summaries, options.window);
    }
    if (options.plot.empty()) {
        return kExitOk;
    }
    // Nothing recorded, nothing written: a read-only command leaves no file behind.
    if (summaries.empty()) {
        std::cerr << kCommand << ": nothing to plot; " << options.plot << " not written\n";
        return kExitOk;
    }
    write_file_atomically(options.plot, reports::synergy_bar_chart(summaries, options.window));
    if (!options.json) {
        std::printf("chart written to %s\n", options.plot.c_str());
    }
    return kExitOk;
}

}  // namespace sbx::cli
