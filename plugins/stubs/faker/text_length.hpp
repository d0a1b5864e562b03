// Length bounds of plain text (a string slot's min/max, a schema's minLength/maxLength),
// counted in characters (UTF-8 code points), not bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <sbx/random.hpp>
#include "locale.hpp"

namespace sbx_faker {

struct LengthBounds {
    std::optional<int64_t> min, max;  // min <= max when both are there
};

// Pads `text` with words of the locale up to min characters and cuts it to max (at a
// character boundary). Lengths are capped at 65536 so a huge bound cannot exhaust memory.
void fit_length(std::string &text, const LengthBounds &bounds, const Locale &locale,
                sbx::SplitMix64 &rng);

}  // namespace sbx_faker
