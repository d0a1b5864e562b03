// Positioned JSON parsing for user input.
#include "util/json_input.hpp"

#include "util/errors.hpp"

namespace sbx {
namespace {

using nlohmann::json;

// The DOM parser of nlohmann::json, except that every parse error keeps its byte offset:
// the stock one throws a number too large for a double (1e400) as out_of_range, which
// carries no position.
class PositionedParser : public nlohmann::detail::json_sax_dom_parser<json> {
  public:
    explicit PositionedParser(json &result) : json_sax_dom_parser(result, false) {}
    // Hides the base's parse_error; json::sax_parse calls it through this type.
    template <class Exception>
    bool parse_error(std::size_t position, const std::string &, const Exception &error) {
        offset = position;
        message = error.what();
        return false;
    }
    std::size_t offset = 0;
    std::string message;
};

// The offset of the first bracket nested deeper than kMaxJsonNesting, or npos. `text` is
// valid JSON, so brackets inside strings are the only ones to skip.
size_t too_deep_at(const std::string &text) {
    size_t depth = 0;
    bool in_string = false;
    bool escaped = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (escaped) {
            escaped = false;
        } else if (in_string) {
            escaped = c == '\\';
            in_string = c != '"';
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxJsonNesting) {
                return i;
            }
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return std::string::npos;
}

}  // namespace

std::string line_column(const std::string &text, size_t offset) {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return std::to_string(line) + ":" + std::to_string(column);
}

json parse_json_input(const std::string &text, const std::string &origin, const std::string &what,
                      const std::string &expected) {
    json parsed;
    PositionedParser parser(parsed);
    if (!json::sax_parse(text, &parser)) {
        throw InputError(origin + ":" +
                         line_column(text, parser.offset == 0 ? 0 : parser.offset - 1) + ": " +
                         what + " is not valid JSON (" + parser.message + "); " + expected);
    }
    if (const size_t at = too_deep_at(text); at != std::string::npos) {
        throw InputError(origin + ":" + line_column(text, at) + ": " + what +
                         " nests lists and objects more than " + std::to_string(kMaxJsonNesting) +
                         " levels deep; " + expected);
    }
    return parsed;
}

std::string json_text(const nlohmann::json &value) {
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace sbx
