// Reading and rebuilding standalone workflow definitions.
#include "config/workflow_file.hpp"

#include <yaml-cpp/yaml.h>

#include "config/load_settings.hpp"
#include "config/yaml_document.hpp"
#include "util/errors.hpp"
#include "util/input_file.hpp"

namespace sbx::config {

std::vector<WorkflowDefinition> read_workflow_file(const std::filesystem::path &path) {
    const std::string text =
        read_input_file(path.string(), "the workflow file", "check the path to import");
    Settings settings = load_settings_text(text, path.string());
    if (settings.workflows.empty()) {
        throw InputError(path.string() +
                         ": defines no workflows; write a `workflows:` list as in "
                         "sandbox_settings.yaml");
    }
    // The settings loader checked everything; the raw nodes give each workflow's text.
    const YAML::Node document = parse_settings_yaml(text, path.string());
    const YAML::Node list = document["workflows"];
    std::vector<WorkflowDefinition> definitions;
    for (size_t i = 0; i < settings.workflows.size(); ++i) {
        YAML::Emitter emitter;
        emitter.SetMapFormat(YAML::Flow);
        emitter.SetSeqFormat(YAML::Flow);
        emitter << list[i];
        definitions.push_back({std::move(settings.workflows[i]), emitter.c_str()});
    }
    return definitions;
}

std::vector<Workflow> workflows_from_definitions(const std::vector<std::string> &yamls,
                                                 const std::string &source) {
    std::string text = "workflows:\n";
    for (const auto &yaml : yamls) {
        text += "  - " + yaml + "\n";
    }
    return load_settings_text(text, source).workflows;
}

}  // namespace sbx::config
