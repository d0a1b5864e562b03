#include "util/shell_word.hpp"

namespace sbx {

std::string shell_quote(const std::string &text) {
    std::string quoted = "'";
    for (const char c : text) {
        if (c == '\'') {
            quoted += "'\\''";
        } else {
            quoted += c;
        }
    }
    return quoted + "'";
}

std::string shell_word(const std::string &text) {
    if (!text.empty() &&
        text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                               "0123456789_./-+,:@%") == std::string::npos) {
        return text;
    }
    return shell_quote(text);
}

}  // namespace sbx
