// What find-boundaries says: the heading of the search, and the findings with where the
// boundaries are kept and the session that recorded the probes, as JSON or text.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "autonomous/boundary_finding.hpp"

namespace sbx::autonomous {

// "find-boundaries WORKFLOW: N axes, R runs per probe, STRATEGY (seed S)".
std::string boundary_search_heading(const std::string &workflow, const BoundarySearch &search);

// Where the findings of a search went.
struct BoundaryRecord {
    std::string workflow;
    int64_t session = 0;
    std::filesystem::path boundaries;  // preset_boundaries.json
};

// {workflow, session, seed, strategy, runs_per_probe, axes, summary, boundaries}.
nlohmann::json boundary_findings_json(const BoundaryRecord &record, const BoundarySearch &search,
                                      const BoundaryFindings &findings);
// "WORKFLOW SUMMARY", then where the boundaries are kept and the session.
std::string boundary_findings_text(const BoundaryRecord &record, const BoundaryFindings &findings);

}  // namespace sbx::autonomous
