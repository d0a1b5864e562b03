// What a RUN argument of the ranking commands names: a data dir, a roi_history.json or a
// metrics.db. Resolving checks the argument; reading happens in source_totals.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace sbx::ranking {

enum class SourceKind {
    roi_history,  // a roi_history.json file
    metrics_db    // a metrics.db (SQLite) file
};

struct Source {
    std::string argument;  // as the user wrote it, for messages
    SourceKind kind = SourceKind::roi_history;
    std::filesystem::path path;  // the file to read
};

// A directory stands for its metrics.db when there is one (it holds every run), else its
// roi_history.json. A file is a metrics.db when it starts with the SQLite header, else it
// is read as a roi_history.json. Throws InputError naming the argument and what to pass.
Source resolve_source(const std::string &argument);
// In argument order; a file named twice (`run1 run1/metrics.db`) is read once. Throws
// InputError for an empty list.
std::vector<Source> resolve_sources(const std::vector<std::string> &arguments);

}  // namespace sbx::ranking
