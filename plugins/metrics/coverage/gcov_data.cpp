// gcov's JSON report of each .gcda, folded into sets of lines.
#include "gcov_data.hpp"

#include <sbx/plugin.hpp>

#include <chrono>
#include <nlohmann/json.hpp>
#include <system_error>

#include "support/system_tool.hpp"

namespace sbx::coverage {
namespace fs = std::filesystem;
namespace {

using nlohmann::json;

// gcov of a large object takes a few milliseconds; one that hangs must not hold a worker.
constexpr std::chrono::milliseconds kGcovTimeout{30000};

// The .gcno notes of `gcda`: the object's own path is the .gcda's path below the folder.
fs::path notes_of(const fs::path &gcda, const fs::path &folder) {
    fs::path notes = fs::path("/") / gcda.lexically_relative(folder);
    notes.replace_extension(".gcno");
    return notes;
}

void add_report(const json &report, LineCoverage &coverage) {
    const fs::path cwd = report.value("current_working_directory", "");
    for (const auto &file : report.value("files", json::array())) {
        const fs::path source = file.value("file", "");
        const std::string name =
            (source.is_absolute() ? source : cwd / source).lexically_normal().string();
        for (const auto &line : file.value("lines", json::array())) {
            std::string key = name;
            key += ':';
            key += std::to_string(line.value("line_number", 0));
            if (line.value("count", int64_t{0}) > 0) {
                coverage.reached.insert(key);
            }
            coverage.instrumented.insert(std::move(key));
        }
    }
}

}  // namespace

void LineCoverage::merge(const LineCoverage &other) {
    instrumented.insert(other.instrumented.begin(), other.instrumented.end());
    reached.insert(other.reached.begin(), other.reached.end());
    unreadable += other.unreadable;
}

LineCoverage read_gcov_folder(const fs::path &folder, const ToolCommand &gcov) {
    LineCoverage coverage;
    std::error_code error;
    for (auto entry = fs::recursive_directory_iterator(folder, error);
         !error && entry != fs::recursive_directory_iterator(); entry.increment(error)) {
        const fs::path gcda = entry->path();
        if (gcda.extension() != ".gcda" || !entry->is_regular_file()) {
            continue;
        }
        const fs::path notes = notes_of(gcda, folder);
        if (!fs::is_regular_file(notes, error)) {
            ++coverage.unreadable;
            host::log(SBX_LOG_WARN, "coverage: no notes (" + notes.string() + ") for " +
                                        gcda.string() + "; was the program rebuilt or moved?");
            error.clear();
            continue;
        }
        // gcov looks for the notes beside the data: a link there, not a copy.
        fs::path link = gcda;
        link.replace_extension(".gcno");
        std::error_code ignored;
        fs::create_symlink(notes, link, ignored);
        const std::vector<std::string> *command = gcov();
        if (command == nullptr) {
            ++coverage.unreadable;
            continue;
        }
        std::vector<std::string> argv = *command;
        argv.insert(argv.end(), {"--json-format", "--stdout", gcda.string()});
        const auto result = support::run_tool(argv, "", support::Output::stdout_only, kGcovTimeout);
        const json report = json::parse(result.output, nullptr, false);
        if (result.exit_code != 0 || report.is_discarded()) {
            ++coverage.unreadable;
            host::log(SBX_LOG_WARN, "coverage: " + support::command_text(*command) +
                                        " could not read " + gcda.string() + " (exit " +
                                        std::to_string(result.exit_code) +
                                        "); a clang build needs gcov: [llvm-cov, gcov]");
            continue;
        }
        add_report(report, coverage);
    }
    return coverage;
}

}  // namespace sbx::coverage
