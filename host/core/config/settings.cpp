// Small behaviour of the settings model: printing locations and finding workflows.
#include "config/settings.hpp"

#include <charconv>

namespace sbx::config {

std::string SourceLocation::str() const {
    if (line <= 0) {
        return file.empty() ? "built-in default" : file;
    }
    return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

const Workflow *Settings::find_workflow(const std::string &name_or_id) const {
    for (const auto &workflow : workflows) {
        if (workflow.name == name_or_id) {
            return &workflow;
        }
    }
    int64_t id = 0;
    const char *end = name_or_id.data() + name_or_id.size();
    auto [stop, error] = std::from_chars(name_or_id.data(), end, id);
    if (name_or_id.empty() || error != std::errc() || stop != end || id <= 0) {
        return nullptr;
    }
    for (const auto &workflow : workflows) {
        if (workflow.id == id) {
            return &workflow;
        }
    }
    return nullptr;
}

}  // namespace sbx::config
