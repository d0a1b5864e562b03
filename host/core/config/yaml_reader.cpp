// Typed access to yaml-cpp nodes with precise, actionable errors.
#include "config/yaml_reader.hpp"

#include <regex>
#include <set>

#include "config/suggest.hpp"
#include "util/errors.hpp"
#include "util/number_parse.hpp"

namespace sbx::config {

namespace {

constexpr int kMaxNesting = 64;

bool is_null(const YAML::Node &node) {
    return !node.IsDefined() || node.IsNull();
}

// `{{input.x}}` written without quotes is a YAML flow mapping inside a flow mapping.
std::string unquoted_template_hint(const YAML::Node &node) {
    if (node.IsMap() && node.size() == 1 && node.begin()->first.IsMap()) {
        return " (a template must be quoted: write \"{{input.NAME}}\")";
    }
    return "";
}

std::string escape_pointer_token(const std::string &key) {
    std::string out;
    for (char c : key) {
        if (c == '~') {
            out += "~0";
        } else if (c == '/') {
            out += "~1";
        } else {
            out += c;
        }
    }
    return out;
}

std::string written_twice(const std::string &key, const std::string &what,
                          const SourceLocation &first) {
    return "key '" + key + "' is written twice in " + what + " (first at line " +
           std::to_string(first.line) + ")";
}

}  // namespace

SourceLocation YamlReader::where(const YAML::Node &node) const {
    YAML::Mark mark = node.IsDefined() ? node.Mark() : YAML::Mark::null_mark();
    if (mark.is_null() || mark.line < 0) {
        return {file_, 1, 1};
    }
    return {file_, mark.line + 1, mark.column + 1};
}

SourceLocation YamlReader::where(const Field &field) const {
    if (is_null(field.value) && field.key_node.IsDefined()) {
        return where(field.key_node);
    }
    return where(field.value);
}

void YamlReader::fail(const SourceLocation &where, const std::string &problem,
                      const std::string &hint) const {
    throw InputError(where.str() + ": " + problem + "; " + hint);
}

std::string YamlReader::describe(const YAML::Node &node) {
    if (is_null(node)) {
        return "empty";
    }
    if (node.IsSequence()) {
        return "a list";
    }
    if (node.IsMap()) {
        return "a mapping";
    }
    std::string text = node.Scalar();
    if (text.size() > 40) {
        text = text.substr(0, 37) + "...";
    }
    return "the value '" + text + "'";
}

std::vector<Field> YamlReader::entries(const Field &field, const std::string &what,
                                       const std::string &example) const {
    return entries_at(field, what, example, 0);
}

std::vector<Field> YamlReader::entries_at(const Field &field, const std::string &what,
                                          const std::string &example, int depth) const {
    std::vector<Field> out;
    if (is_null(field.value)) {
        return out;
    }
    if (!field.value.IsMap()) {
        fail(where(field), what + " must be a mapping, not " + describe(field.value),
             "write " + example);
    }
    if (depth > kMaxNesting) {
        fail(where(field),
             "merge keys (<<) are nested more than " + std::to_string(kMaxNesting) + " deep",
             "remove a merge that refers to itself");
    }
    std::map<std::string, SourceLocation> seen;
    std::vector<Field> merged;  // from `<<: *anchor`; keys written here take precedence
    for (const auto &pair : field.value) {
        if (!pair.first.IsScalar()) {
            fail(where(pair.first), "a key in " + what + " is " + describe(pair.first),
                 "keys must be plain names; write " + example + unquoted_template_hint(pair.first));
        }
        const std::string key = pair.first.Scalar();
        if (key == "<<" && pair.first.Tag() == "?") {
            // YAML merge key: a mapping or a list of mappings (earlier ones win).
            const std::string hint = "write <<: *defaults or <<: [*defaults, *more]";
            std::vector<YAML::Node> sources;
            if (pair.second.IsSequence()) {
                for (const auto &item : pair.second) {
                    sources.push_back(item);
                }
            } else {
                sources.push_back(pair.second);
            }
            for (const auto &source : sources) {
                if (!source.IsMap()) {
                    fail(where(source.IsDefined() && !source.IsNull() ? source : pair.first),
                         "a merge key (<<) in " + what + " is given " + describe(source) +
                             ", not a mapping",
                         hint);
                }
                auto from_source = entries_at({key, pair.first, source}, what, example, depth + 1);
                merged.insert(merged.end(), from_source.begin(), from_source.end());
            }
            continue;
        }
        auto [previous, inserted] = seen.emplace(key, where(pair.first));
        if (!inserted) {
            fail(where(pair.first), written_twice(key, what, previous->second), "keep one of them");
        }
        out.push_back({key, pair.first, pair.second});
    }
    for (auto &entry : merged) {
        if (seen.emplace(entry.key, where(entry.key_node)).second) {
            out.push_back(std::move(entry));
        }
    }
    return out;
}

std::vector<Field> YamlReader::fields(const Field &field,
                                      const std::vector<std::string> &known_keys,
                                      const std::string &what, const std::string &example) const {
    std::vector<Field> out = entries(field, what, example);
    const std::set<std::string> known(known_keys.begin(), known_keys.end());
    for (const auto &entry : out) {
        if (known.count(entry.key) == 0) {
            fail(where(entry.key_node), "unknown key '" + entry.key + "' in " + what,
                 did_you_mean(entry.key, known_keys) + "the keys of " + what + " are " +
                     join(known_keys));
        }
    }
    return out;
}

void YamlReader::check_scalar(const Field &field, const std::string &kind,
                              const std::string &example) const {
    if (is_null(field.value)) {
        fail(where(field), field.key + " is empty", "write " + example);
    }
    if (!field.value.IsScalar()) {
        fail(where(field), field.key + " must be " + kind + ", not " + describe(field.value),
             "write " + example + unquoted_template_hint(field.value));
    }
}

std::string YamlReader::text(const Field &field, const std::string &example) const {
    check_scalar(field, "a single value", example);
    return field.value.Scalar();
}

std::string YamlReader::non_empty_text(const Field &field, const std::string &example) const {
    std::string value = text(field, example);
    if (value.empty()) {
        fail(where(field), field.key + " is an empty string", "write " + example);
    }
    return value;
}

int64_t YamlReader::integer(const Field &field, const std::string &example) const {
    check_scalar(field, "a whole number", example);
    const auto value = util::parse_int64(field.value.Scalar());
    if (!value) {
        fail(where(field), field.key + " must be a whole number, not " + describe(field.value),
             "write " + example);
    }
    return *value;
}

double YamlReader::number(const Field &field, const std::string &example) const {
    check_scalar(field, "a number", example);
    const auto value = util::parse_double(field.value.Scalar());
    if (!value) {
        fail(where(field), field.key + " must be a number, not " + describe(field.value),
             "write " + example);
    }
    return *value;
}

bool YamlReader::boolean(const Field &field) const {
    const std::string example = field.key + ": true or " + field.key + ": false";
    check_scalar(field, "true or false", example);
    nlohmann::json value = scalar_to_json(field.value);
    if (!value.is_boolean()) {
        fail(where(field), field.key + " must be true or false, not " + describe(field.value),
             "write " + example);
    }
    return value.get<bool>();
}

std::vector<std::string> YamlReader::text_list(const Field &field, const std::string &example,
                                               std::vector<SourceLocation> *locations) const {
    std::vector<std::string> out;
    if (is_null(field.value)) {
        return out;
    }
    if (!field.value.IsSequence()) {
        fail(where(field), field.key + " must be a list, not " + describe(field.value),
             "write " + example);
    }
    size_t index = 0;
    for (const auto &item : field.value) {
        ++index;
        if (!item.IsScalar()) {
            fail(where(item.IsDefined() && !item.IsNull() ? item : field.value),
                 "item " + std::to_string(index) + " of " + field.key + " is " + describe(item) +
                     ", not a single value",
                 "write " + example + unquoted_template_hint(item));
        }
        out.push_back(item.Scalar());
        if (locations != nullptr) {
            locations->push_back(where(item));
        }
    }
    return out;
}

nlohmann::json YamlReader::json(const YAML::Node &node,
                                std::map<std::string, SourceLocation> *locations) const {
    return json_at(node, "", 0, locations);
}

nlohmann::json YamlReader::json_at(const YAML::Node &node, const std::string &pointer, int depth,
                                   std::map<std::string, SourceLocation> *locations) const {
    if (depth > kMaxNesting) {
        fail(where(node), "values are nested more than " + std::to_string(kMaxNesting) + " deep",
             "flatten the structure (or remove an alias that refers to itself)");
    }
    if (locations != nullptr) {
        (*locations)[pointer] = where(node);
    }
    if (is_null(node)) {
        return nullptr;
    }
    if (node.IsScalar()) {
        return scalar_to_json(node);
    }
    if (node.IsSequence()) {
        nlohmann::json out = nlohmann::json::array();
        size_t index = 0;
        for (const auto &item : node) {
            out.push_back(
                json_at(item, pointer + "/" + std::to_string(index++), depth + 1, locations));
        }
        return out;
    }
    nlohmann::json out = nlohmann::json::object();
    Field self{"a value", YAML::Node(), node};
    for (const auto &entry : entries(self, "this mapping", "key: value")) {
        out[entry.key] = json_at(entry.value, pointer + "/" + escape_pointer_token(entry.key),
                                 depth + 1, locations);
    }
    return out;
}

nlohmann::json scalar_to_json(const YAML::Node &scalar) {
    if (!scalar.IsDefined() || scalar.IsNull()) {
        return nullptr;
    }
    const std::string &text = scalar.Scalar();
    // Quoted ("!") or explicitly tagged scalars are strings; only plain ones ("?") resolve.
    if (scalar.Tag() != "?") {
        return text;
    }
    if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL") {
        return nullptr;
    }
    if (text == "true" || text == "True" || text == "TRUE") {
        return true;
    }
    if (text == "false" || text == "False" || text == "FALSE") {
        return false;
    }
    static const std::regex integer_pattern("[-+]?[0-9]+");
    static const std::regex float_pattern("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
    if (std::regex_match(text, integer_pattern)) {
        if (const auto value = util::parse_int64(text)) {
            return *value;
        }
        if (const auto big = util::parse_uint64(text)) {
            return *big;
        }
    }
    if (std::regex_match(text, float_pattern)) {
        if (const auto value = util::parse_double(text)) {
            return *value;
        }
    }
    return text;
}

}  // namespace sbx::config
