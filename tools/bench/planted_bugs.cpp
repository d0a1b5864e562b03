// The planted-bug target of tools/bench/efficacy: a program with one input bug, chosen by
// --bug, that aborts (SIGABRT, a crash to sandbox-runner) when its input triggers it and
// prints "ok" otherwise. The bugs are the twenty input bugs hostile inputs exist to find.
//
//   sbx-bench-planted-bugs --bug NAME --mode text   the input is stdin as it is (a string
//                                                   slot fed to stdin)
//   sbx-bench-planted-bugs --bug NAME --mode json   stdin is a JSON document: the request
//                                                   reader's byte-level bugs first, then a
//                                                   strict parse (a malformed document is
//                                                   refused with exit 2, a clean rejection),
//                                                   then the bug in every string, key and
//                                                   number of the document
//   sbx-bench-planted-bugs --list                   the bug names, one per line
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace {

bool contains(std::string_view text, std::string_view part) {
    return text.find(part) != std::string_view::npos;
}

bool valid_utf8(std::string_view text) {
    try {
        (void)nlohmann::json(std::string(text)).dump();
        return true;
    } catch (const nlohmann::json::type_error &) {
        return false;
    }
}

bool all_digits(std::string_view text) {
    return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

// Bracket depth, as a recursive-descent parser of nested data would recurse.
std::size_t nesting_depth(std::string_view text) {
    std::size_t depth = 0;
    std::size_t deepest = 0;
    for (const char c : text) {
        if (c == '[' || c == '{' || c == '(') {
            deepest = std::max(deepest, ++depth);
        } else if ((c == ']' || c == '}' || c == ')') && depth > 0) {
            --depth;
        }
    }
    return deepest;
}

// A code point of four UTF-8 bytes (U+10000 and up: emoji), which UTF-16 code cares about.
bool has_astral(std::string_view text) {
    for (std::size_t i = 0; i + 3 < text.size(); ++i) {
        const auto b = static_cast<unsigned char>(text[i]);
        if (b >= 0xF0 && b <= 0xF4 && (static_cast<unsigned char>(text[i + 1]) & 0xC0U) == 0x80U) {
            return true;
        }
    }
    return false;
}

// Three combining diacritics (U+0300..U+036F) in a row: zalgo text.
bool has_zalgo(std::string_view text) {
    int run = 0;
    for (std::size_t i = 0; i + 1 < text.size(); ++i) {
        const auto a = static_cast<unsigned char>(text[i]);
        const auto b = static_cast<unsigned char>(text[i + 1]);
        if ((a == 0xCC && b >= 0x80) || (a == 0xCD && b <= 0xAF)) {
            if (++run >= 3) {
                return true;
            }
            ++i;
        } else {
            run = 0;
        }
    }
    return false;
}

bool reserved_name(std::string_view text) {
    std::string upper;
    for (const char c : text.substr(0, text.find('.'))) {
        upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    if (upper == "CON" || upper == "PRN" || upper == "AUX" || upper == "NUL") {
        return true;
    }
    return upper.size() == 4 && (upper.rfind("COM", 0) == 0 || upper.rfind("LPT", 0) == 0) &&
           upper[3] >= '1' && upper[3] <= '9';
}

// A bug is a condition on one value: the whole input (text mode) or one string, key or
// number text of the document (json mode).
using Condition = std::function<bool(std::string_view)>;

const std::map<std::string, Condition> &bugs() {
    static const std::map<std::string, Condition> table = {
        {"nul", [](std::string_view v) { return v.find('\0') != std::string_view::npos; }},
        {"long_input", [](std::string_view v) { return v.size() > 1024; }},  // a fixed buffer
        {"format_string",
         [](std::string_view v) { return contains(v, "%n") || contains(v, "%s"); }},
        {"dot_dot_slash",
         [](std::string_view v) { return contains(v, "../") || contains(v, "..\\"); }},
        {"rtl_mark",
         [](std::string_view v) {
             for (const char *mark : {"\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d",
                                      "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"}) {
                 if (contains(v, mark)) {
                     return true;
                 }
             }
             return false;
         }},
        {"sql_quote", [](std::string_view v) { return contains(v, "'"); }},
        {"shell_metachar",
         [](std::string_view v) {
             return v.find_first_of(";|&`") != std::string_view::npos || contains(v, "$(");
         }},
        {"deep_nesting", [](std::string_view v) { return nesting_depth(v) > 1000; }},
        {"twenty_digits",  // an integer field parsed into 64 bits
         [](std::string_view v) {
             const std::string_view digits =
                 !v.empty() && (v[0] == '-' || v[0] == '+') ? v.substr(1) : v;
             return all_digits(digits) && digits.size() >= 20;
         }},
        {"nan_infinity",  // a float field that must be finite
         [](std::string_view v) {
             const std::string text(v);
             char *end = nullptr;
             const double d = std::strtod(text.c_str(), &end);
             return !text.empty() && end == text.c_str() + text.size() && !std::isfinite(d) &&
                    text.find_first_of("0123456789") == std::string::npos;
         }},
        {"crlf", [](std::string_view v) { return contains(v, "\r\n"); }},  // header injection
        {"xml_entity", [](std::string_view v) { return contains(v, "<!ENTITY"); }},
        {"template_braces",
         [](std::string_view v) { return contains(v, "{{") || contains(v, "${"); }},
        {"emoji", has_astral},
        {"invalid_utf8", [](std::string_view v) { return !valid_utf8(v); }},
        {"zalgo", has_zalgo},
        {"negative_number",  // a count used as a size
         [](std::string_view v) { return v.size() > 1 && v[0] == '-' && all_digits(v.substr(1)); }},
        {"empty_input", [](std::string_view v) { return v.empty(); }},
        {"reserved_name", reserved_name},  // a file name on Windows
        {"case_growing",                   // upper-casing into a buffer of the same size
         [](std::string_view v) {
             for (const char *grows :
                  {"\u00df", "\u0149", "\u01f0", "\u0390", "\u03b0", "\u0587", "\ufb00", "\ufb01",
                   "\ufb02", "\ufb03", "\ufb04", "\u0130"}) {
                 if (contains(v, grows)) {
                     return true;
                 }
             }
             return false;
         }},
    };
    return table;
}

[[noreturn]] void crash(const std::string &bug, std::string_view where) {
    std::fprintf(stderr, "planted bug %s triggered by %s\n", bug.c_str(),
                 std::string(where).c_str());
    std::abort();
}

// Walks a parsed document with the SAX interface: every string, key and number reaches
// the bug, and the depth is tracked without recursion.
class DocumentWalker : public nlohmann::json_sax<nlohmann::json> {
  public:
    DocumentWalker(std::string bug, const Condition &condition)
        : bug_(std::move(bug)), condition_(condition) {}

    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t value) override { return number(std::to_string(value)); }
    bool number_unsigned(number_unsigned_t value) override { return number(std::to_string(value)); }
    bool number_float(number_float_t, const string_t &text) override { return number(text); }
    bool string(string_t &value) override { return check(value, "a string"); }
    bool binary(binary_t &) override { return true; }
    bool start_object(std::size_t) override { return deeper(); }
    bool key(string_t &value) override { return check(value, "a key"); }
    bool end_object() override { return shallower(); }
    bool start_array(std::size_t) override { return deeper(); }
    bool end_array() override { return shallower(); }
    bool parse_error(std::size_t position, const std::string &,
                     const nlohmann::detail::exception &e) override {
        std::fprintf(stderr, "refused: not a JSON document (at byte %zu): %s\n", position,
                     e.what());
        std::exit(2);
    }

  private:
    bool number(const std::string &text) {
        // A number is a bug's input only for the numeric bugs: -1 is no SQL quote.
        if (bug_ == "negative_number" || bug_ == "twenty_digits") {
            return check(text, "a number");
        }
        return true;
    }
    bool check(const std::string &value, const char *what) {
        if (bug_ != "deep_nesting" && condition_(value)) {
            crash(bug_, what);
        }
        return true;
    }
    bool deeper() {
        if (++depth_ > 1000 && bug_ == "deep_nesting") {
            crash(bug_, "the document's depth");
        }
        return true;
    }
    bool shallower() {
        --depth_;
        return true;
    }

    std::string bug_;
    const Condition &condition_;
    std::size_t depth_ = 0;
};

int usage() {
    std::fprintf(stderr, "usage: sbx-bench-planted-bugs --bug NAME --mode text|json | --list\n");
    return 64;
}

}  // namespace

int main(int argc, char **argv) {
    std::string bug;
    std::string mode;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--list") {
            for (const auto &entry : bugs()) {
                std::printf("%s\n", entry.first.c_str());
            }
            return 0;
        }
        if ((arg == "--bug" || arg == "--mode") && i + 1 < argc) {
            (arg == "--bug" ? bug : mode) = argv[++i];
        } else {
            return usage();
        }
    }
    const auto found = bugs().find(bug);
    if (found == bugs().end() || (mode != "text" && mode != "json")) {
        return usage();
    }
    const std::string input{std::istreambuf_iterator<char>(std::cin),
                            std::istreambuf_iterator<char>()};
    if (mode == "text") {
        if (found->second(input)) {
            crash(bug, "the input");
        }
    } else {
        // The request reader: bytes before any parsing.
        if ((bug == "empty_input" && input.empty()) ||
            (bug == "invalid_utf8" && !valid_utf8(input)) ||
            (bug == "nul" && input.find('\0') != std::string::npos)) {
            crash(bug, "the request's bytes");
        }
        DocumentWalker walker(bug, found->second);
        nlohmann::json::sax_parse(input, &walker);
    }
    std::printf("ok\n");
    return 0;
}
