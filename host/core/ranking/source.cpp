// Resolving RUN arguments to the file each one stands for.
#include "ranking/source.hpp"

#include <array>
#include <cstring>
#include <fstream>
#include <set>

#include "util/errors.hpp"

namespace sbx::ranking {
namespace {

namespace fs = std::filesystem;

constexpr const char *kWhatToPass =
    "pass a data dir written by sandbox-runner (its --data-dir), a roi_history.json or a "
    "metrics.db";

// Every SQLite 3 database file starts with these 16 bytes (the NUL included).
bool has_sqlite_header(const fs::path &path) {
    static constexpr char kHeader[] = "SQLite format 3";
    std::array<char, sizeof(kHeader)> start{};
    std::ifstream file(path, std::ios::binary);
    file.read(start.data(), start.size());
    return file.gcount() == static_cast<std::streamsize>(start.size()) &&
           std::memcmp(start.data(), kHeader, sizeof(kHeader)) == 0;
}

}  // namespace

Source resolve_source(const std::string &argument) {
    const fs::path path(argument);
    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (argument.empty() || !fs::exists(status)) {
        throw InputError("RUN '" + argument + "' does not exist; " + kWhatToPass);
    }
    if (fs::is_directory(status)) {
        if (fs::exists(path / "metrics.db", ec)) {
            return {argument, SourceKind::metrics_db, path / "metrics.db"};
        }
        if (fs::exists(path / "roi_history.json", ec)) {
            return {argument, SourceKind::roi_history, path / "roi_history.json"};
        }
        throw InputError("RUN '" + argument +
                         "' is a directory without metrics.db or roi_history.json; " + kWhatToPass);
    }
    if (!fs::is_regular_file(status)) {
        throw InputError("RUN '" + argument + "' is not a regular file or a directory; " +
                         kWhatToPass);
    }
    return {argument, has_sqlite_header(path) ? SourceKind::metrics_db : SourceKind::roi_history,
            path};
}

std::vector<Source> resolve_sources(const std::vector<std::string> &arguments) {
    if (arguments.empty()) {
        throw InputError(std::string("no RUN given; ") + kWhatToPass +
                         " (one or more, e.g. run1 run2/roi_history.json)");
    }
    std::vector<Source> sources;
    std::set<fs::path> seen;
    for (const auto &argument : arguments) {
        auto source = resolve_source(argument);
        // `run1 run1/metrics.db` names one file twice; its runs count once.
        std::error_code ec;
        const auto canonical = fs::canonical(source.path, ec);
        if (seen.insert(ec ? source.path : canonical).second) {
            sources.push_back(std::move(source));
        }
    }
    return sources;
}

}  // namespace sbx::ranking
