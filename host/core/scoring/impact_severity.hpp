// How much of a workflow's ROI a rollback would cost, by workflow type (the `impact:` of a
// workflow): the built-in table of docs/semantics.md ("RAROI"), optionally overridden by a YAML
// file.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <string>

namespace sbx::scoring {

struct ImpactSeverity {
    // Workflow type -> severity in [0, 1]: the share of the ROI lost when a change of this
    // type has to be rolled back.
    std::map<std::string, double> by_type = {
        {"critical", 0.9}, {"experimental", 0.2}, {"low", 0.1}, {"standard", 0.5}};
};

// The severity of `type`. Throws InputError naming the type and the known types.
double impact_of(const ImpactSeverity &severity, const std::string &type);

// The built-in table with the entries of the YAML mapping in `path` (type: number in
// [0, 1]) added or replacing built-in ones; an empty file changes nothing. Throws
// InputError "file:line:column: problem; what to write" for unreadable files, bad YAML, a
// value that is not a number in [0, 1] and a type written twice.
ImpactSeverity load_impact_severity(const std::filesystem::path &path);

// The file named by IMPACT_SEVERITY_CONFIG when it is set (a missing file is then an
// error), else `default_path` when that file exists, else the built-in table.
ImpactSeverity impact_severity_from_environment(
    const std::filesystem::path &default_path,
    const std::function<const char *(const char *)> &getenv = ::getenv);

}  // namespace sbx::scoring
