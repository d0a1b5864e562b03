// `rank-scenarios`, `rank-synergy`, `rank-scenario-synergy`: rankings over the results of
// finished runs (data dirs, roi_history.json or metrics.db files), best first.
#include <boost/program_options.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "cli_context.hpp"
#include "option_parsing.hpp"
#include "output_file.hpp"
#include "ranking/ranking.hpp"
#include "ranking/scenario_chart.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"

namespace po = boost::program_options;

namespace sbx::cli {
namespace {

// Ordered: "scenario" first, as in the text lines.
using json = nlohmann::ordered_json;

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

// Three decimals, and never "-0.000" for a total that is zero but for rounding.
std::string decimal(double value) {
    char text[64];
    std::snprintf(text, sizeof(text), "%.3f", std::fabs(value) < 0.0005 ? 0.0 : value);
    return text;
}

// The heading of a workflow's ranking: "" is a roi_history.json's, which records none.
std::string workflow_heading(const std::string &workflow) {
    return workflow.empty() ? "workflow not recorded (roi_history.json):"
                            : "workflow " + workflow + ":";
}

void print_scenarios(const std::vector<ranking::ScenarioRank> &rows, bool as_json,
                     ranking::WorkflowGrouping grouping) {
    const bool each_workflow = grouping == ranking::WorkflowGrouping::each_workflow;
    if (as_json) {
        json list = json::array();
        for (const auto &row : rows) {
            json object;
            if (each_workflow) {
                object["workflow"] = row.workflow.empty() ? json() : json(row.workflow);
            }
            object.update(json{{"scenario", row.scenario},
                               {"roi", row.roi},
                               {"cells", row.cells},
                               {"mean_roi", row.mean_roi()}});
            if (row.security_score) {
                object["security_score"] = *row.security_score;
            }
            list.push_back(object);
        }
        std::cout << list.dump(2) << '\n';
        return;
    }
    // The ranking is by the sum (a scenario recorded more often weighs more, as the original
    // tool ranked); the line says so, with the mean that compares scenarios run unequally.
    // Several workflows: a heading each, the ranking of its scenarios indented under it.
    const bool headings =
        each_workflow && !rows.empty() && rows.front().workflow != rows.back().workflow;
    for (size_t i = 0; i < rows.size(); ++i) {
        const auto &row = rows[i];
        if (headings && (i == 0 || rows[i - 1].workflow != row.workflow)) {
            std::cout << workflow_heading(row.workflow) << '\n';
        }
        std::cout << (headings ? "  " : "") << row.scenario << " ROI=" << decimal(row.roi)
                  << " (sum of " << row.cells << " cell" << (row.cells == 1 ? "" : "s") << ", mean "
                  << decimal(row.mean_roi()) << ")";
        if (row.security_score) {
            std::cout << " security_score=" << decimal(*row.security_score);
        }
        std::cout << '\n';
    }
}

void print_synergy(const ranking::SynergyRanking &ranking, bool as_json) {
    if (as_json) {
        json list = json::array();
        for (const auto &row : ranking.rows) {
            list.push_back({{"scenario", row.scenario}, {ranking.metric, row.value}});
        }
        std::cout << list.dump(2) << '\n';
        return;
    }
    for (const auto &row : ranking.rows) {
        std::cout << row.scenario << ' ' << ranking.metric << '=' << decimal(row.value) << '\n';
    }
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
        print_scenarios(rows, options.json, grouping);
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
    print_synergy(ranking, options.json);
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
