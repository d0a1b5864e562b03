// Parsing settings text into a YAML document, with positions for every kind of failure:
// bytes that are not UTF-8, tabs in indentation, syntax errors, several documents.
#include "config/yaml_document.hpp"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <optional>
#include <sstream>
#include <vector>

#include "config/yaml_reader.hpp"
#include "util/errors.hpp"
#include <sbx/utf8.hpp>

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
        // The strict rule JSON's writer applies (overlong forms and surrogates are not
        // UTF-8): a laxer one let them through to a dump() that threw (tests/fuzz).
        const size_t length = utf8_sequence_length(text, i);
        if (length == 0) {
            return SourceLocation{source_name, line, column};
        }
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
        i += length;
    }
    return std::nullopt;
}

SourceLocation location(const std::string &source_name, const YAML::Mark &mark) {
    return SourceLocation{source_name, mark.line + 1, mark.column + 1};
}

// The first two documents of a YAML text, read as events (nothing is built).
// Rationale: yaml-cpp 0.7's LoadAll loops forever, allocating until the machine runs out of
// memory, on a stray ',' at the top level: each call of HandleNextDocument reports an empty
// document without consuming the token (fixed upstream in yaml-cpp 0.9, jbeder/yaml-cpp
// pull request 1319; tests/fuzz/fuzz_settings found it). Counting stops at the second
// document, and a document that starts where the one before it started is that loop.
struct DocumentCount {
    std::optional<YAML::Mark> second_node;  // the first node of a second document
    std::optional<YAML::Mark> stuck_at;     // where the parser made no progress
};

class DocumentCounter : public YAML::EventHandler {
  public:
    void OnDocumentStart(const YAML::Mark &mark) override { starts.push_back(mark); }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark &mark, YAML::anchor_t /*anchor*/) override { node(mark); }
    void OnAlias(const YAML::Mark &mark, YAML::anchor_t /*anchor*/) override { node(mark); }
    void OnScalar(const YAML::Mark &mark, const std::string & /*tag*/, YAML::anchor_t /*anchor*/,
                  const std::string & /*value*/) override {
        node(mark);
    }
    void OnSequenceStart(const YAML::Mark &mark, const std::string & /*tag*/,
                         YAML::anchor_t /*anchor*/, YAML::EmitterStyle::value /*style*/) override {
        node(mark);
    }
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark &mark, const std::string & /*tag*/, YAML::anchor_t /*anchor*/,
                    YAML::EmitterStyle::value /*style*/) override {
        node(mark);
    }
    void OnMapEnd() override {}

    std::vector<YAML::Mark> starts;
    std::optional<YAML::Mark> second_node;

  private:
    void node(const YAML::Mark &mark) {
        if (starts.size() == 2 && !second_node) {
            second_node = mark;
        }
    }
};

DocumentCount count_documents(const std::string &yaml) {
    std::istringstream stream(yaml);
    YAML::Parser parser(stream);
    DocumentCounter counter;
    while (counter.starts.size() < 2 && parser.HandleNextDocument(counter)) {
    }
    DocumentCount count;
    if (counter.starts.size() == 2) {
        if (counter.starts[1].pos == counter.starts[0].pos) {
            count.stuck_at = counter.starts[0];
        } else {
            count.second_node = counter.second_node ? counter.second_node : counter.starts[1];
        }
    }
    return count;
}

}  // namespace

YAML::Node parse_settings_yaml(const std::string &yaml, const std::string &source_name) {
    if (auto bad = invalid_utf8(yaml, source_name)) {
        throw InputError(bad->str() +
                         ": this byte is not valid UTF-8; save the file as UTF-8 text");
    }
    try {
        const DocumentCount count = count_documents(yaml);
        if (count.stuck_at) {
            throw InputError(location(source_name, *count.stuck_at).str() +
                             ": this is not valid YAML here (a stray ',', ']' or '}'?); fix "
                             "the syntax here: close every bracket that is opened, and only "
                             "those");
        }
        if (count.second_node) {
            YamlReader reader(source_name);
            reader.fail(location(source_name, *count.second_node),
                        "the file holds more than one YAML document",
                        "keep one document (remove the '---' line and what follows it)");
        }
        return YAML::Load(yaml);
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
