// Parsing settings text into a YAML document, with positions for every kind of failure:
// bytes that are not UTF-8, tabs in indentation, syntax errors, several documents.
#include "config/yaml_document.hpp"

#include <algorithm>
#include <optional>

#include "config/yaml_reader.hpp"
#include "util/errors.hpp"

namespace sbx::config {

namespace {

// YAML forbids tabs in indentation, and yaml-cpp reports them as some other error further
// on; find the first indenting tab up to the line of that error, if any.
std::optional<SourceLocation> indenting_tab(const std::string &yaml, int last_line,
                                            const std::string &source_name) {
    int line = 1;
    size_t start = 0;
    while (start < yaml.size() && line <= last_line) {
        size_t end = std::min(yaml.find('\n', start), yaml.size());
        for (size_t i = start; i < end && (yaml[i] == ' ' || yaml[i] == '\t'); ++i) {
            if (yaml[i] == '\t') {
                return SourceLocation{source_name, line, static_cast<int>(i - start) + 1};
            }
        }
        start = end + 1;
        ++line;
    }
    return std::nullopt;
}

// The position of the first byte that is not part of valid UTF-8 (JSON, which carries the
// settings to plugins, cannot hold it), or nullopt.
std::optional<SourceLocation> invalid_utf8(const std::string &text,
                                           const std::string &source_name) {
    int line = 1;
    int column = 1;  // in characters, as yaml-cpp counts them
    size_t i = 0;
    while (i < text.size()) {
        const auto byte = static_cast<unsigned char>(text[i]);
        size_t length = byte < 0x80           ? 1
                        : (byte >> 5) == 0x6  ? 2
                        : (byte >> 4) == 0xE  ? 3
                        : (byte >> 3) == 0x1E ? 4
                                              : 0;
        bool valid = length != 0 && i + length <= text.size();
        for (size_t k = 1; valid && k < length; ++k) {
            valid = (static_cast<unsigned char>(text[i + k]) >> 6) == 0x2;
        }
        if (!valid) {
            return SourceLocation{source_name, line, column};
        }
        if (byte == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
        i += length;
    }
    return std::nullopt;
}

}  // namespace

YAML::Node parse_settings_yaml(const std::string &yaml, const std::string &source_name) {
    if (auto bad = invalid_utf8(yaml, source_name)) {
        throw InputError(bad->str() +
                         ": this byte is not valid UTF-8; save the file as UTF-8 text");
    }
    try {
        std::vector<YAML::Node> documents = YAML::LoadAll(yaml);
        if (documents.size() > 1) {
            YamlReader reader(source_name);
            reader.fail(reader.where(documents[1]), "the file holds more than one YAML document",
                        "keep one document (remove the '---' line and what follows it)");
        }
        return documents.empty() ? YAML::Node() : documents.front();
    } catch (const YAML::Exception &error) {
        SourceLocation where{source_name, 1, 1};
        if (!error.mark.is_null()) {
            where = {source_name, error.mark.line + 1, error.mark.column + 1};
        }
        if (auto tab = indenting_tab(yaml, where.line, source_name)) {
            throw InputError(tab->str() +
                             ": a tab is used for indentation, which YAML does not allow; "
                             "indent with spaces");
        }
        throw InputError(where.str() + ": this is not valid YAML (" + error.msg +
                         "); fix the syntax here: indent with spaces, close every quote and "
                         "bracket, and put a space after each ':'");
    }
}

}  // namespace sbx::config
