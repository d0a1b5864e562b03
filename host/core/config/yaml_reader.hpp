// Typed access to yaml-cpp nodes for the settings loader. Every accessor knows the file
// name and fails with InputError "file:line:column: what is wrong; what to write instead".
#pragma once

#include <map>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>
#include <nlohmann/json.hpp>

#include "config/settings.hpp"

namespace sbx::config {

// One key of a mapping and its value.
// NOLINTNEXTLINE(bugprone-exception-escape): yaml-cpp's Node has no noexcept move.
struct Field {
    std::string key;
    YAML::Node key_node;
    YAML::Node value;
};

class YamlReader {
  public:
    explicit YamlReader(std::string file) : file_(std::move(file)) {}

    const std::string &file() const { return file_; }

    // Where a node starts (1:1 when yaml-cpp has no mark for it, e.g. an empty document).
    SourceLocation where(const YAML::Node &node) const;
    // Where a field's value starts; the key's position when the value is empty, since
    // yaml-cpp marks an empty value at the start of the next line.
    SourceLocation where(const Field &field) const;

    // Throws InputError "<where>: <problem>; <hint>".
    [[noreturn]] void fail(const SourceLocation &where, const std::string &problem,
                           const std::string &hint) const;

    // The fields of the mapping in `field.value`, in the order written. Rejects a value that
    // is not a mapping (an empty value counts as an empty mapping), a key not in
    // `known_keys` (suggesting the closest and listing all) and a key written twice. `what`
    // names the mapping in messages ("the top level", "step 'build' of workflow 'ci'");
    // `example` is a correct one.
    std::vector<Field> fields(const Field &field, const std::vector<std::string> &known_keys,
                              const std::string &what, const std::string &example) const;
    // The entries of a mapping with free-form keys (env, files, inputs, plugins): only checks
    // that it is a mapping of scalar keys, each written once. YAML merge keys
    // (`<<: *defaults`) are expanded; keys written beside them take precedence.
    std::vector<Field> entries(const Field &field, const std::string &what,
                               const std::string &example) const;

    // Scalar values. `example` is a correct line to show, e.g. "executor: local".
    std::string text(const Field &field, const std::string &example) const;  // any scalar
    std::string non_empty_text(const Field &field, const std::string &example) const;
    int64_t integer(const Field &field, const std::string &example) const;
    double number(const Field &field, const std::string &example) const;
    bool boolean(const Field &field) const;  // true or false
    // A list of scalars; `locations` (when given) receives where each item was written.
    std::vector<std::string> text_list(const Field &field, const std::string &example,
                                       std::vector<SourceLocation> *locations = nullptr) const;

    // Any YAML value as JSON; scalars typed by the YAML 1.2 core schema (quoted scalars
    // stay strings). `locations` (when given) receives a JSON pointer -> where entry per value.
    nlohmann::json json(const YAML::Node &node,
                        std::map<std::string, SourceLocation> *locations = nullptr) const;

    // "a list", "a mapping", "empty", "the text 'abc'": what the user wrote, for messages.
    static std::string describe(const YAML::Node &node);

  private:
    std::vector<Field> entries_at(const Field &field, const std::string &what,
                                  const std::string &example, int depth) const;
    void check_scalar(const Field &field, const std::string &kind,
                      const std::string &example) const;
    nlohmann::json json_at(const YAML::Node &node, const std::string &pointer, int depth,
                           std::map<std::string, SourceLocation> *locations) const;

    std::string file_;
};

// A scalar typed as the YAML 1.2 core schema types it: null, bool, integer, float, string.
nlohmann::json scalar_to_json(const YAML::Node &scalar);

}  // namespace sbx::config
