// coverage.py's combine and JSON report, folded into sets of lines.
#include "python_data.hpp"

#include <sbx/plugin.hpp>

#include <chrono>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <system_error>
#include <vector>

#include "support/system_tool.hpp"

namespace sbx::coverage {
namespace fs = std::filesystem;
namespace {

using nlohmann::json;

constexpr const char *kDataName = "python.coverage";
constexpr std::chrono::milliseconds kToolTimeout{30000};

// The data files the run's Python processes wrote ("python.coverage.<host>.<pid>.<n>").
std::vector<fs::path> data_files(const fs::path &folder) {
    std::vector<fs::path> files;
    std::error_code error;
    for (const auto &entry : fs::directory_iterator(folder, error)) {
        if (entry.path().filename().string().rfind(std::string(kDataName) + ".", 0) == 0) {
            files.push_back(entry.path());
        }
    }
    return files;
}

// Runs `coverage` with `args`; false (and a warning) when it fails.
bool run_coverage(const std::vector<std::string> &coverage, const std::vector<std::string> &args,
                  const fs::path &folder, LineCoverage &lines) {
    std::vector<std::string> argv = coverage;
    argv.insert(argv.end(), args.begin(), args.end());
    const auto result = support::run_tool(argv, "", support::Output::merged, kToolTimeout);
    if (result.exit_code == 0) {
        return true;
    }
    ++lines.unreadable;
    host::log(SBX_LOG_WARN, "coverage: " + support::command_text(argv) + " failed in " +
                                folder.string() + " (exit " + std::to_string(result.exit_code) +
                                "): " + result.output);
    return false;
}

}  // namespace

LineCoverage read_python_folder(const fs::path &folder, const ToolCommand &tool) {
    LineCoverage lines;
    const std::vector<fs::path> written = data_files(folder);
    if (written.empty()) {
        return lines;
    }
    const std::vector<std::string> *command = tool();
    if (command == nullptr) {
        ++lines.unreadable;
        return lines;
    }
    const std::vector<std::string> &coverage = *command;
    const std::string data = (folder / kDataName).string();
    const std::string report = (folder / "python.json").string();
    // One process's file is the combined data already: renaming it saves a Python start
    // (about 0.1 s of the 0.4 s a run's Python coverage costs).
    std::error_code renamed;
    if (written.size() == 1) {
        fs::rename(written.front(), data, renamed);
    }
    if (written.size() > 1 || renamed) {
        if (!run_coverage(coverage, {"combine", "--data-file=" + data, folder.string()}, folder,
                          lines)) {
            return lines;
        }
    }
    if (!run_coverage(coverage, {"json", "--data-file=" + data, "-o", report}, folder, lines)) {
        return lines;
    }
    std::ifstream in(report);
    const json parsed = json::parse(std::istreambuf_iterator<char>(in),
                                    std::istreambuf_iterator<char>(), nullptr, false);
    if (parsed.is_discarded()) {
        ++lines.unreadable;
        return lines;
    }
    // Paths under the reporting process's folder are written relative to it.
    const fs::path cwd = fs::current_path();
    const json files = parsed.value("files", json::object());
    for (const auto &entry : files.items()) {
        const json &figures = entry.value();
        const fs::path source = entry.key();
        const std::string name =
            (source.is_absolute() ? source : cwd / source).lexically_normal().string();
        const auto add = [&](const char *field, bool reached) {
            for (const auto &number : figures.value(field, json::array())) {
                std::string key = name;
                key += ':';
                key += std::to_string(number.get<int64_t>());
                if (reached) {
                    lines.reached.insert(key);
                }
                lines.instrumented.insert(std::move(key));
            }
        };
        add("executed_lines", true);
        add("missing_lines", false);
    }
    return lines;
}

}  // namespace sbx::coverage
