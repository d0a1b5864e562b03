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
#include "reports/roi_history.hpp"
#include "reports/svg_chart.hpp"
#include "store/store.hpp"
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
};

Options parse(const std::string &which, const std::vector<std::string> &args) {
    Options options;
    po::options_description description(which + " options");
    description.add_options()("run", po::value(&options.runs)->composing(), "RUN...")(
        "json", po::bool_switch(&options.json), "print a JSON list");
    if (which != "rank-scenarios") {
        description.add_options()("metric", po::value(&options.metric), "synergy metric");
    } else {
        description.add_options()("plot", po::value(&options.plot), "FILE.svg");
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

void print_scenarios(const std::vector<ranking::ScenarioRank> &rows, bool as_json) {
    if (as_json) {
        json list = json::array();
        for (const auto &row : rows) {
            json object = {{"scenario", row.scenario},
                           {"roi", row.roi},
                           {"cells", row.cells},
                           {"mean_roi", row.mean_roi()}};
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
    for (const auto &row : rows) {
        std::cout << row.scenario << " ROI=" << decimal(row.roi) << " (sum of " << row.cells
                  << " cell" << (row.cells == 1 ? "" : "s") << ", mean " << decimal(row.mean_roi())
                  << ")";
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

// Each scenario's ROI per workflow over every source, in argument order (older runs first,
// as for the ranking), oldest entry first: a roi_history.json's `roi` lists (which name no
// workflow: ""), a metrics.db's on-cells that the ranking counts (by id, the order they
// finished in). Different workflows are different programs: never one line.
using RoiSeries = std::map<std::string, std::map<std::string, std::vector<double>>>;
RoiSeries roi_series(const std::vector<ranking::Source> &sources) {
    RoiSeries series;
    for (const auto &source : sources) {
        if (source.kind == ranking::SourceKind::roi_history) {
            for (const auto &[scenario, history] :
                 reports::load_roi_history(source.path).scenarios) {
                auto &values = series[scenario][""];
                values.insert(values.end(), history.roi.begin(), history.roi.end());
            }
            continue;
        }
        // Opened as the ranking opened it a moment ago (migrated, so the columns exist).
        store::Store store(source.path);
        store.locked([&](store::Connection &connection) {
            store::Statement query(connection.get(),
                                   "SELECT presets.name, cells.roi, cells.workflow FROM cells "
                                   "JOIN presets ON presets.id = cells.preset_id WHERE "
                                   "cells.flag = 'on' AND cells.not_applicable IS NULL AND "
                                   "cells.errored_runs < cells.runs ORDER BY cells.id");
            while (query.step()) {
                series[query.column_text(0)][query.column_text(2)].push_back(
                    query.column_double(1));
            }
        });
    }
    return series;
}

// One line per ranked scenario and workflow, in ranking order (so the legend reads like the
// ranking), named "scenario (workflow)" when the scenario ran in several; x is the entry's
// index in that series.
void write_plot(const std::string &plot, const std::vector<ranking::Source> &sources,
                const std::vector<ranking::ScenarioRank> &rows, bool as_json) {
    const auto series = roi_series(sources);
    reports::LineChart chart;
    chart.title = "ROI history per scenario";
    chart.x_label = "entry (oldest first)";
    chart.y_label = "ROI";
    chart.x_integers = true;
    chart.y_min = 0;
    chart.y_max = 1;
    for (const auto &row : rows) {
        const auto found = series.find(row.scenario);
        if (found == series.end()) {
            chart.series.push_back({row.scenario, {}, {}, {}, false});
            continue;
        }
        for (const auto &[workflow, values] : found->second) {
            const std::string name =
                found->second.size() == 1
                    ? row.scenario
                    : row.scenario + " (" + (workflow.empty() ? "roi_history" : workflow) + ")";
            reports::ChartSeries line{name, {}, {}, {}, false};
            for (size_t i = 0; i < values.size(); ++i) {
                line.points.push_back({static_cast<double>(i), values[i]});
            }
            chart.series.push_back(std::move(line));
        }
    }
    write_file_atomically(plot, reports::render_line_chart(chart));
    if (!as_json) {
        std::cout << "chart written to " << plot << '\n';
    }
}

int rank(const std::string &which, const Options &options) {
    if (which == "rank-scenarios") {
        const auto sources = ranking::resolve_sources(options.runs);
        const auto rows = ranking::rank_scenarios(sources);
        if (rows.empty() && !options.json) {
            std::cerr << which << ": no scenario recorded in the RUNs given\n";
        }
        print_scenarios(rows, options.json);
        if (!options.plot.empty()) {
            write_plot(options.plot, sources, rows, options.json);
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
