// Realistic text of the locale for the faker stub: names, emails, URLs, addresses, phone
// numbers, companies, dates, paths. Every value draws only from the Rng passed in, so the
// order of draws (part of the replay contract) fixes the output.
#pragma once

#include <string>

#include <sbx/random.hpp>
#include "generator.hpp"
#include "locale.hpp"

namespace sbx_faker {

using Rng = sbx::SplitMix64;

// Appends the value of `generator` (a text generator: not integer, number, boolean,
// choice or json) to `out` as UTF-8, unescaped.
void append_text(Generator generator, const Locale &locale, Rng &rng, std::string &out);

// `text` in lower-case ASCII for emails, usernames and host names: umlauts and the
// letters of the built-in lists transliterated (ä → ae, ß → ss, ı → i), runs of anything
// else as one `separator` (none when '\0'), none at either end.
std::string ascii_slug(std::string_view text, char separator);

}  // namespace sbx_faker
