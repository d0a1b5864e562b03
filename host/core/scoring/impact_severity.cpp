// Reading the impact severity table, with errors at the line and column to fix.
#include "scoring/impact_severity.hpp"

#include <set>

#include <yaml-cpp/yaml.h>

#include "util/errors.hpp"
#include "util/input_file.hpp"
#include "util/number_parse.hpp"

namespace sbx::scoring {

namespace {

constexpr const char *kExample = "write one 'type: severity' line per type, e.g. 'critical: 0.9'";

// "file:line:column"; yaml-cpp counts from 0, editors from 1.
std::string position(const std::string &file, const YAML::Mark &mark) {
    if (mark.is_null() || mark.line < 0) {
        return file + ":1:1";
    }
    return file + ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1);
}

std::string where(const std::string &file, const YAML::Node &node) {
    return position(file, node.Mark());
}

// What the user wrote, for messages.
std::string describe(const YAML::Node &node) {
    if (node.IsNull()) {
        return "empty";
    }
    if (node.IsSequence()) {
        return "a list";
    }
    if (node.IsMap()) {
        return "a mapping";
    }
    return "'" + node.Scalar() + "'";
}

std::string known_types(const ImpactSeverity &severity) {
    std::string out;
    for (const auto &[type, value] : severity.by_type) {
        out += (out.empty() ? "" : ", ") + type;
    }
    return out;
}

[[noreturn]] void not_a_severity(const std::string &at, const std::string &type,
                                 const YAML::Node &value) {
    throw InputError(at + ": the severity of '" + type + "' must be a number from 0 to 1, not " +
                     describe(value) + "; write e.g. '" + type + ": 0.5'");
}

YAML::Node parse(const std::string &text, const std::string &file) {
    try {
        return YAML::Load(text);
    } catch (const YAML::Exception &error) {
        throw InputError(position(file, error.mark) + ": this is not valid YAML (" + error.msg +
                         "); fix the syntax here: indent with spaces and put a space after "
                         "each ':'");
    }
}

ImpactSeverity read_table(const std::filesystem::path &path, const std::string &hint) {
    const std::string file = path.string();
    const YAML::Node root = parse(read_input_file(path, "the impact severity file", hint), file);
    ImpactSeverity severity;
    if (!root.IsDefined() || root.IsNull()) {
        return severity;
    }
    if (!root.IsMap()) {
        throw InputError(where(file, root) +
                         ": the impact severity file must be a mapping of workflow type to "
                         "severity, not " +
                         describe(root) + "; " + kExample);
    }
    std::map<std::string, int> first_line;  // rationale: yaml-cpp keeps duplicate keys
    for (const auto &entry : root) {
        const YAML::Node &key = entry.first;
        const YAML::Node &value = entry.second;
        if (!key.IsScalar() || key.Scalar().empty()) {
            throw InputError(where(file, key) + ": a workflow type must be a name, not " +
                             describe(key) + "; " + kExample);
        }
        const std::string type = key.Scalar();
        const int line = key.Mark().line + 1;
        if (auto [seen, added] = first_line.emplace(type, line); !added) {
            throw InputError(where(file, key) + ": type '" + type +
                             "' is written twice (first at line " + std::to_string(seen->second) +
                             "); keep one of them");
        }
        // An empty value is marked at the next line by yaml-cpp; point at the key instead.
        const std::string at = value.IsNull() ? where(file, key) : where(file, value);
        const auto number =
            value.IsScalar() ? util::parse_double(value.Scalar()) : std::optional<double>();
        if (!number || *number < 0 || *number > 1) {
            not_a_severity(at, type, value);
        }
        severity.by_type[type] = *number;
    }
    return severity;
}

}  // namespace

double impact_of(const ImpactSeverity &severity, const std::string &type) {
    auto found = severity.by_type.find(type);
    if (found == severity.by_type.end()) {
        throw InputError("impact type '" + type + "' is not known; use one of " +
                         known_types(severity) +
                         ", or add it to the impact severity file (IMPACT_SEVERITY_CONFIG, "
                         "default config/impact_severity.yaml)");
    }
    return found->second;
}

ImpactSeverity load_impact_severity(const std::filesystem::path &path) {
    return read_table(path, "give a readable YAML file of 'type: severity' lines");
}

ImpactSeverity impact_severity_from_environment(
    const std::filesystem::path &default_path,
    const std::function<const char *(const char *)> &getenv) {
    const char *named = getenv("IMPACT_SEVERITY_CONFIG");
    if (named != nullptr && *named != '\0') {
        return read_table(named,
                          "set IMPACT_SEVERITY_CONFIG to a readable YAML file, or unset it to "
                          "use the default table");
    }
    std::error_code ignored;
    if (!default_path.empty() && std::filesystem::exists(default_path, ignored)) {
        return load_impact_severity(default_path);
    }
    return ImpactSeverity{};
}

}  // namespace sbx::scoring
