// "Did you mean ...?" for misspelt keys and names, by edit distance, and the lists of
// choices that error messages show when no candidate is close enough.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sbx::config {

// Levenshtein distance (insertions, deletions, substitutions, transpositions count 1).
size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word` when it is close enough to be a likely typo (at most
// max(2, length/3) edits, case ignored), else one that `word` starts or is the start of
// (at least 3 letters: "warning" -> "warn"); nullopt otherwise.
std::optional<std::string> closest_match(std::string_view word,
                                         const std::vector<std::string> &candidates);

// "a, b, c" (or "none" for an empty list).
std::string join(const std::vector<std::string> &items, std::string_view separator = ", ");

// "did you mean 'executor'? " when a candidate is close, else "" (to put before a list).
std::string did_you_mean(std::string_view word, const std::vector<std::string> &candidates);

}  // namespace sbx::config
