// `rank-scenarios`, `rank-synergy`, `rank-scenario-synergy`: rankings over the results of
// finished runs (data dirs, roi_history.json or metrics.db files), best first.
#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>

#include "cli_context.hpp"
#include "option_parsing.hpp"
#include "output_file.hpp"
#include "ranking/ranking.hpp"
#include "ranking/ranking_listing.hpp"
#include "ranking/scenario_chart.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"

namespace po = boost::program_options;

namespace sbx::cli {
namespace {

struct Options {
    std::vector<std::string> runs;
    std::string metric = "roi";
    bool json = false;
    std::string plot;  // rank-scenarios --plot FILE.svg; "" = no chart
    // rank-scenarios: one ranking over every workflow instead of one per workflow
    bool all_workflows = false;
};

Options parse(const std::string &which, const std::vector<std::string> &args) {
    Options options;
    po::options_description description(which + " options");
    description.add_options()("run", po::value(&options.runs)->composing(), "RUN...")(
        "json", po::bool_switch(&options.json), "print a JSON list");
    if (which != "rank-scenarios") {
        description.add_options()("metric", po::value(&options.metric), "synergy metric");
    } else {
        description.add_options()("plot", po::value(&options.plot), "FILE.svg")(
            "all-workflows", po::bool_switch(&options.all_workflows),
            "one ranking over every workflow");
    }
    po::positional_options_description positional;
    positional.add("run", -1);
    const auto given = parse_options(which, args, description, positional);
    if (given.count("plot") != 0) {
        try {
            check_output_file(options.plot, "--plot", "ranking.svg");
        } catch (const InputError &e) {
            throw InputError(which + ": " + e.what());
        }
    }
    return options;
}

// rank-scenarios --plot FILE.svg: the chart written, and said unless --json.
void write_plot(const std::string &plot, const std::vector<ranking::Source> &sources,
                const std::vector<ranking::ScenarioRank> &rows, ranking::WorkflowGrouping grouping,
                bool as_json) {
    write_file_atomically(
        plot, reports::render_line_chart(ranking::scenario_roi_chart(sources, rows, grouping)));
    if (!as_json) {
        std::cout << "chart written to " << plot << '\n';
    }
}

int rank(const std::string &which, const Options &options) {
    if (which == "rank-scenarios") {
        const auto sources = ranking::resolve_sources(options.runs);
        const auto grouping = options.all_workflows ? ranking::WorkflowGrouping::all_workflows
                                                    : ranking::WorkflowGrouping::each_workflow;
        const auto rows = ranking::rank_scenarios(sources, grouping);
        if (rows.empty() && !options.json) {
            std::cerr << which << ": no scenario recorded in the RUNs given\n";
        }
        if (options.json) {
            std::cout << ranking::scenario_ranking_json(rows, grouping).dump(2) << '\n';
        } else {
            std::cout << ranking::scenario_ranking_text(rows, grouping);
        }
        if (!options.plot.empty()) {
            write_plot(options.plot, sources, rows, grouping, options.json);
        }
        return kExitOk;
    }
    const std::string metric = ranking::synergy_metric_name(options.metric);
    const auto sources = ranking::resolve_sources(options.runs);
    const auto ranking = which == "rank-synergy" ? ranking::rank_synergy(sources, metric)
                                                 : ranking::rank_scenario_synergy(sources, metric);
    if (ranking.rows.empty() && !options.json) {
        std::cerr << which << ": no synergy recorded in the RUNs given\n";
    }
    if (options.json) {
        std::cout << ranking::synergy_ranking_json(ranking).dump(2) << '\n';
    } else {
        std::cout << ranking::synergy_ranking_text(ranking);
    }
    return kExitOk;
}

}  // namespace

int run_rank_command(CliContext & /*context*/, const std::string &which,
                     const std::vector<std::string> &args) {
    const auto options = parse(which, args);
    try {
        return rank(which, options);
    } catch (const InputError &e) {
        throw InputError(which + ": " + e.what());
    }
}

}  // namespace sbx::cli
