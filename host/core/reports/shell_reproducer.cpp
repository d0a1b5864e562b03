// Shell lines for a run's steps.
#include "reports/shell_reproducer.hpp"

#include <algorithm>
#include <cstdio>

#include <sbx/utf8.hpp>
#include "engine/spec_raw_fields.hpp"

namespace sbx::reports {

using nlohmann::json;

std::string printf_bytes(const std::string &text) {
    // printf's format carries any byte as \ooo; printable ASCII stays readable.
    std::string format;
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '%') {
            format += "%%";
        } else if (c == '\\') {
            format += "\\\\";
        } else if (c == '\'') {
            format += "'\\''";
        } else if (byte >= 0x20 && byte < 0x7f) {
            format += c;
        } else {
            char octal[8];
            std::snprintf(octal, sizeof octal, "\\%03o", byte);
            format += octal;
        }
    }
    return "printf '" + format + "'";
}

namespace {

// Whether `text` reads as itself in a terminal: valid UTF-8 without control characters.
bool printable(const std::string &text) {
    return is_valid_utf8(text) && std::none_of(text.begin(), text.end(), [](char c) {
               const auto byte = static_cast<unsigned char>(c);
               return byte < 0x20 || byte == 0x7f;
           });
}

// Shell words for one step's command line. A word that would not read as itself (invalid
// UTF-8, control characters) is built from octal escapes into a variable first; the `x`
// keeps trailing newlines, which a command substitution would drop.
class Words {
  public:
    explicit Words(size_t step) : prefix_("sbx_s" + std::to_string(step) + "_") {}
    std::string word(const std::string &bytes) {
        if (printable(bytes)) {
            return shell_quote(bytes);
        }
        const std::string name = prefix_ + std::to_string(++count_);
        assignments_ +=
            name + "=$(" + printf_bytes(bytes + "x") + ") && " + name + "=${" + name + "%x}\n";
        return "\"$" + name + "\"";
    }
    const std::string &assignments() const { return assignments_; }

  private:
    std::string prefix_;
    size_t count_ = 0;
    std::string assignments_;
};

std::string text_of(const json &value) {
    return value.is_string() ? value.get<std::string>() : value.dump();
}

}  // namespace

std::string shell_reproducer(const std::vector<std::string> &header,
                             const std::vector<std::string> &step_names,
                             const std::vector<json> &specs) {
    std::string out;
    for (const auto &line : header) {
        out += "# " + line + "\n";
    }
    // A scratch folder of its own, removed when the script ends however it ends.
    out +=
        "sbx_workspace=$(mktemp -d) && cd \"$sbx_workspace\" || exit\n"
        "trap 'cd / && rm -rf \"$sbx_workspace\"' EXIT\n";
    for (size_t i = 0; i < specs.size(); ++i) {
        const json &spec = specs[i];
        out += "# step " + std::to_string(i + 1) + ": " +
               (i < step_names.size() ? step_names[i] : std::string()) + "\n";
        // Named copies, not temporaries: a range-for over value(...).items() keeps a
        // reference into a temporary alive only by accident. Each field's exact bytes come
        // from the spec's `raw` field where the text could not hold them.
        const json files = spec.value("files", json::object());
        const json env = spec.value("env", json::object());
        const json argv = spec.value("argv", json::array());
        Words words(i + 1);
        std::string lines;
        for (const auto &[path, content] : files.items()) {
            const std::string name = engine::exact_bytes(spec, path, "file_names", path);
            if (const auto slash = name.rfind('/'); slash != std::string::npos) {
                lines += "mkdir -p " + words.word(name.substr(0, slash)) + "\n";
            }
            lines += printf_bytes(engine::exact_bytes(spec, text_of(content), "files", path)) +
                     " > " + words.word(name) + "\n";
        }
        std::string line;
        const std::string stdin_text =
            engine::exact_bytes(spec, spec.value("stdin", std::string()), "stdin");
        line += stdin_text.empty() ? "" : printf_bytes(stdin_text) + " | ";
        line += "env";
        for (const auto &[name, value] : env.items()) {
            line += " " +
                    words.word(name + "=" + engine::exact_bytes(spec, text_of(value), "env", name));
        }
        for (size_t k = 0; k < argv.size(); ++k) {
            line += " " + words.word(engine::exact_bytes(spec, text_of(argv[k]), "argv",
                                                         std::to_string(k)));
        }
        out += words.assignments();
        out += lines;
        out += line;
        out += stdin_text.empty() ? " < /dev/null\n" : "\n";
    }
    return out;
}

}  // namespace sbx::reports
