// Reading the coverage.py data of one step: the data files a Python target wrote under
// COVERAGE_FILE (one per process), combined and reported as JSON by the system's
// coverage.py, turned into the lines it could and did run.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "gcov_data.hpp"

namespace sbx::coverage {

// The data files "python.coverage.*" in `folder`, read with the `coverage` command
// (Debian's python3-coverage). Nothing when there are none.
LineCoverage read_python_folder(const std::filesystem::path &folder, const ToolCommand &tool);

}  // namespace sbx::coverage
