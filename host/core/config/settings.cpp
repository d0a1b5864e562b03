// Small behaviour of the settings model: printing locations and finding workflows.
#include "config/settings.hpp"

#include "util/number_parse.hpp"

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
    const auto id = util::parse_int64(name_or_id, util::LeadingPlus::refused);
    if (!id || *id <= 0) {
        return nullptr;
    }
    for (const auto &workflow : workflows) {
        if (workflow.id == *id) {
            return &workflow;
        }
    }
    return nullptr;
}

}  // namespace sbx::config
