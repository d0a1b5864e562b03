// Reading the gcov data of one step: the .gcda files a target built with --coverage wrote
// under GCOV_PREFIX, matched with the .gcno notes its build left beside each object file,
// turned by the system's gcov (`--json-format --stdout`) into the lines it could and did
// run.
#pragma once

#include <filesystem>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace sbx::coverage {

// Lines as "<absolute source path>:<line number>".
struct LineCoverage {
    std::set<std::string> instrumented;  // lines the build counts
    std::set<std::string> reached;       // of those, lines that ran at least once
    int unreadable = 0;                  // .gcda files without notes, or gcov refused them

    void merge(const LineCoverage &other);
};

// A tool's command, looked up the first time data needs it: null when the tool is missing
// (the data then counts as unreadable).
using ToolCommand = std::function<const std::vector<std::string> *()>;

// Every .gcda under `folder` (written with GCOV_PREFIX=<folder>, GCOV_PREFIX_STRIP=0, so
// its path below the folder is the object's own path), read with the `gcov` command.
LineCoverage read_gcov_folder(const std::filesystem::path &folder, const ToolCommand &gcov);

}  // namespace sbx::coverage
