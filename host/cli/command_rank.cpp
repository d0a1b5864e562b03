// `rank-scenarios`, `rank-synergy`, `rank-scenario-synergy`: rankings over the results of
// finished runs (data dirs, roi_history.json or metrics.db files), best first.
#include <boost/program_options.hpp>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli_context.hpp"
#include "option_parsing.hpp"
#include "ranking/ranking.hpp"
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
};

Options parse(const std::string &which, const std::vector<std::string> &args) {
    Options options;
    po::options_description description(which + " options");
    description.add_options()("run", po::value(&options.runs)->composing(), "RUN...")(
        "json", po::bool_switch(&options.json), "print a JSON list");
    if (which != "rank-scenarios") {
        description.add_options()("metric", po::value(&options.metric), "synergy metric");
    }
    po::positional_options_description positional;
    positional.add("run", -1);
    parse_options(which, args, description, positional);
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
            json object = {{"scenario", row.scenario}, {"roi", row.roi}};
            if (row.security_score) {
                object["security_score"] = *row.security_score;
            }
            list.push_back(object);
        }
        std::cout << list.dump(2) << '\n';
        return;
    }
    for (const auto &row : rows) {
        std::cout << row.scenario << " ROI=" << decimal(row.roi);
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

int rank(const std::string &which, const Options &options) {
    if (which == "rank-scenarios") {
        const auto rows = ranking::rank_scenarios(ranking::resolve_sources(options.runs));
        if (rows.empty() && !options.json) {
            std::cerr << which << ": no scenario recorded in the RUNs given\n";
        }
        print_scenarios(rows, options.json);
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
