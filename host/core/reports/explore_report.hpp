// What `explore` found, as data (`--json`) and as the text people read: the runs spent, the
// coverage feedback, each distinct failure with what it shrank to and its replay line.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/explore_session.hpp"

namespace sbx::reports {

struct ExploreReport {
    const engine::ExploreOutcome &outcome;
    const std::vector<engine::ShrunkCrash> &crashes;
    std::string workflow;
    std::string commands;  // what starts a replay line (command_prefix)
    int64_t session = 0;
};

// {"workflow", "session", "slot", "preset", "runs", "coverage", "runs_with_new_lines",
//  "accepted", "corpus", "exhausted", "failures": [{signature, summary, run, found_at, hits,
//  replay, shrunk?: {inputs, minimal, broken_by, run, replay}}]}
nlohmann::json explore_json(const ExploreReport &report, const std::string &preset);

// The text report; `preset` as the user named it, `corpus_folder` the --corpus folder ("":
// none). Inputs longer than the terminal takes are cut to their start and their length.
std::string explore_text(const ExploreReport &report, const std::string &preset,
                         const std::string &corpus_folder);

// A value for the terminal: strings over 120 bytes cut to their start and their length,
// also inside a string that holds a JSON document (the json slots' values).
nlohmann::json shortened(const nlohmann::json &value);

}  // namespace sbx::reports
