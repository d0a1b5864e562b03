// Edit distance (optimal string alignment) and the suggestions built on it.
#include "config/suggest.hpp"

#include <algorithm>
#include <cctype>
#include <limits>

namespace sbx::config {

namespace {

std::string lowercase(std::string_view text) {
    std::string out(text);
    for (char &c : out) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
}

}  // namespace

size_t edit_distance(std::string_view a, std::string_view b) {
    // Three rows of the optimal-string-alignment table: a swap of neighbours ("exectuor")
    // is one edit, as a reader would count it.
    std::vector<size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) {
        previous[j] = j;
    }
    for (size_t i = 1; i <= a.size(); ++i) {
        current[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
                current[j] = std::min(current[j], before[j - 2] + 1);
            }
        }
        before.swap(previous);
        previous.swap(current);
    }
    return previous[b.size()];
}

std::optional<std::string> closest_match(std::string_view word,
                                         const std::vector<std::string> &candidates) {
    const std::string needle = lowercase(word);
    size_t best = std::numeric_limits<size_t>::max();
    const std::string *winner = nullptr;
    for (const auto &candidate : candidates) {
        size_t distance = edit_distance(needle, lowercase(candidate));
        if (distance < best) {
            best = distance;
            winner = &candidate;
        }
    }
    size_t allowed = std::max<size_t>(2, word.size() / 3);
    if (winner != nullptr && best <= allowed && best < word.size()) {
        return *winner;
    }
    // A longer or shorter form of a name ("warning" for "warn", "err" for "error").
    for (const auto &candidate : candidates) {
        const std::string lower = lowercase(candidate);
        const bool word_is_shorter = needle.size() < lower.size();
        const std::string &shorter = word_is_shorter ? needle : lower;
        const std::string &longer = word_is_shorter ? lower : needle;
        if (shorter.size() >= 3 && longer.compare(0, shorter.size(), shorter) == 0) {
            return candidate;
        }
    }
    return std::nullopt;
}

std::string join(const std::vector<std::string> &items, std::string_view separator) {
    if (items.empty()) {
        return "none";
    }
    std::string out;
    for (const auto &item : items) {
        if (!out.empty()) {
            out += separator;
        }
        out += item;
    }
    return out;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string> &candidates) {
    auto match = closest_match(word, candidates);
    return match ? "did you mean '" + *match + "'? " : "";
}

}  // namespace sbx::config
