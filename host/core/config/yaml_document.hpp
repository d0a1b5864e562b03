// Turns settings text into one yaml-cpp document, or an InputError at the exact line and
// column: invalid UTF-8, a tab in indentation, a YAML syntax error, a second document.
#pragma once

#include <string>

#include <yaml-cpp/yaml.h>

namespace sbx::config {

// The document in `yaml` (a null node when it is empty or only comments). `source_name`
// is the file name used in error messages.
YAML::Node parse_settings_yaml(const std::string &yaml, const std::string &source_name);

}  // namespace sbx::config
