// Fitting plain text into length bounds (see text_length.hpp).
#include "text_length.hpp"

#include <algorithm>

namespace sbx_faker {
namespace {

constexpr int64_t kMaxLength = 65536;

bool starts_character(char c) {
    return (static_cast<unsigned char>(c) & 0xC0U) != 0x80U;
}

int64_t characters(const std::string &text) {
    return std::count_if(text.begin(), text.end(), starts_character);
}

}  // namespace

void fit_length(std::string &text, const LengthBounds &bounds, const Locale &locale,
                sbx::SplitMix64 &rng) {
    const int64_t min = std::clamp<int64_t>(bounds.min.value_or(0), 0, kMaxLength);
    const int64_t max = std::clamp<int64_t>(bounds.max.value_or(kMaxLength), min, kMaxLength);
    int64_t length = characters(text);
    while (length < min) {
        text += text.empty() ? "" : " ";
        text += locale.words[static_cast<std::size_t>(rng.below(locale.words.size()))];
        length = characters(text);
    }
    if (length <= max) {
        return;
    }
    // Keep the first `max` characters: cut before the byte that starts character max + 1.
    int64_t seen = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (starts_character(text[i]) && seen++ == max) {
            text.resize(i);
            break;
        }
    }
    // A word cut off before its space would end the text in a space: drop it when allowed.
    if (!text.empty() && text.back() == ' ' && max > min) {
        text.pop_back();
    }
}

}  // namespace sbx_faker
