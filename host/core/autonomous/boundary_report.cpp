// find-boundaries' heading and findings, as JSON and as text.
#include "autonomous/boundary_report.hpp"

#include "util/text_format.hpp"

namespace sbx::autonomous {

std::string boundary_search_heading(const std::string &workflow, const BoundarySearch &search) {
    return util::format_text(
        "find-boundaries %s: %zu ax%s, %d run%s per probe, %s (seed %lld)", workflow.c_str(),
        search.axes.size(), search.axes.size() == 1 ? "is" : "es", search.runs,
        search.runs == 1 ? "" : "s", search.strategy.c_str(), static_cast<long long>(search.seed));
}

nlohmann::json boundary_findings_json(const BoundaryRecord &record, const BoundarySearch &search,
                                      const BoundaryFindings &findings) {
    return {{"workflow", record.workflow},
            {"session", record.session},
            {"seed", search.seed},
            {"strategy", search.strategy},
            {"runs_per_probe", search.runs},
            {"axes", findings.axes},
            {"summary", record.workflow + " " + findings.summary},
            {"boundaries", record.boundaries.string()}};
}

std::string boundary_findings_text(const BoundaryRecord &record, const BoundaryFindings &findings) {
    return record.workflow + " " + findings.summary + "\nboundaries kept in " +
           record.boundaries.string() + "; recorded as session " + std::to_string(record.session) +
           "\n";
}

}  // namespace sbx::autonomous
