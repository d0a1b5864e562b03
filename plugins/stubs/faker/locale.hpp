// The faker stub's locales: the word lists and formats of realistic values in one language
// and country, compiled in (locale_*.cpp) so a seed's output depends on the .so alone.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace sbx_faker {

// A read-only list of words with static storage.
class Words {
  public:
    template <std::size_t N>
    constexpr Words(const std::string_view (&items)[N]) : items_(items), size_(N) {}

    [[nodiscard]] constexpr std::size_t size() const { return size_; }
    [[nodiscard]] constexpr std::string_view operator[](std::size_t i) const { return items_[i]; }

  private:
    const std::string_view *items_;
    std::size_t size_;
};

// Formats are expanded left to right by expand() (text_values.cpp): {first}, {last},
// {street_name}, {street_suffix}, {building}, {city}, {state}, {postcode}, {street},
// {company_suffix} draw from the lists below; '#' is a digit 0-9, '%' a digit 1-9.
// Part of the replay contract: editing a list changes what recorded seeds produce (and
// the golden files in tests/stubs/golden/).
struct Locale {
    std::string_view name;  // "en_US"
    Words first_names;
    Words last_names;
    Words street_names;
    Words street_suffixes;
    std::string_view street_format;
    int building_max;  // house numbers are 1..building_max
    Words cities;
    Words states;
    Words countries;
    std::string_view address_format;
    int postcode_min;  // postcodes are 5 digits, zero-padded, in [min, max]
    int postcode_max;
    Words phone_formats;
    Words company_formats;
    Words company_suffixes;
    Words email_domains;  // reserved (RFC 2606) domains: a target that mails nobody real
    Words url_paths;      // ASCII path segments of URLs
    Words words;          // common words of plain text slots
    Words directories;    // ASCII directory and file stems of relative paths
    Words file_stems;
};

const Locale &en_us();
const Locale &de_de();

// The locale named `name` ("en_US", "de_DE"), or nullptr.
const Locale *find_locale(std::string_view name);
// "de_DE, en_US", for messages that list the choices.
std::string locale_list();

}  // namespace sbx_faker
