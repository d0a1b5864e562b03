// The hook that starts coverage.py in a Python target: a `sitecustomize` in a folder put
// first on PYTHONPATH. It steps aside first (takes its folder off sys.path and runs the
// sitecustomize it hides, so the target's imports resolve as they would natively), then
// measures (when the interpreter has coverage.py) into the data file COVERAGE_FILE names.
#pragma once

#include <filesystem>

namespace sbx::coverage_capture {

// Writes the hook (sitecustomize.py) into `folder`, made when missing. Throws
// std::filesystem::filesystem_error or sbx::Error when it cannot.
void write_python_hook(const std::filesystem::path &folder);

}  // namespace sbx::coverage_capture
