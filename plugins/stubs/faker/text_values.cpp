// Text generators of the faker stub (see text_values.hpp), built from the locale's lists
// and formats.
#include "text_values.hpp"

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <string_view>

#include "support/civil_date.hpp"

namespace sbx_faker {
namespace {

using std::string_view;

// Dates: any day 1970–2030; birthdays of people aged about 18 to 85.
constexpr int64_t kFirstDay = sbx::support::days_from_civil(1970, 1, 1);
constexpr int64_t kLastDay = sbx::support::days_from_civil(2030, 12, 31);
constexpr int64_t kFirstBirthday = sbx::support::days_from_civil(1940, 1, 1);
constexpr int64_t kLastBirthday = sbx::support::days_from_civil(2006, 12, 31);

constexpr string_view kExtensions[] = {"txt", "csv", "json", "md", "pdf"};

string_view pick(const Words &words, Rng &rng) {
    return words[static_cast<std::size_t>(rng.below(words.size()))];
}

void append_digits(std::string &out, Rng &rng, int count) {
    for (int i = 0; i < count; ++i) {
        out += static_cast<char>('0' + rng.below(10));
    }
}

void append_padded(std::string &out, int64_t value, int width) {
    char text[32];
    std::snprintf(text, sizeof text, "%0*lld", width, static_cast<long long>(value));
    out += text;
}

void expand(string_view format, const Locale &locale, Rng &rng, std::string &out);

// One {token} of a format.
void append_token(string_view token, const Locale &locale, Rng &rng, std::string &out) {
    if (token == "first") {
        out += pick(locale.first_names, rng);
    } else if (token == "last") {
        out += pick(locale.last_names, rng);
    } else if (token == "street_name") {
        out += pick(locale.street_names, rng);
    } else if (token == "street_suffix") {
        out += pick(locale.street_suffixes, rng);
    } else if (token == "building") {
        out += std::to_string(rng.between(1, locale.building_max));
    } else if (token == "city") {
        out += pick(locale.cities, rng);
    } else if (token == "state") {
        out += pick(locale.states, rng);
    } else if (token == "postcode") {
        append_padded(out, rng.between(locale.postcode_min, locale.postcode_max), 5);
    } else if (token == "street") {
        expand(locale.street_format, locale, rng, out);
    } else if (token == "company_suffix") {
        out += pick(locale.company_suffixes, rng);
    }
}

void expand(string_view format, const Locale &locale, Rng &rng, std::string &out) {
    for (std::size_t i = 0; i < format.size(); ++i) {
        const char c = format[i];
        if (c == '{') {
            const std::size_t end = format.find('}', i);
            append_token(format.substr(i + 1, end - i - 1), locale, rng, out);
            i = end;
        } else if (c == '#') {
            out += static_cast<char>('0' + rng.below(10));
        } else if (c == '%') {
            out += static_cast<char>('1' + rng.below(9));
        } else {
            out += c;
        }
    }
}

// first.last, flast, first42, first_last: the shapes of real mailbox and account names.
std::string account_name(const Locale &locale, Rng &rng) {
    const std::string first = ascii_slug(pick(locale.first_names, rng), '\0');
    const std::string last = ascii_slug(pick(locale.last_names, rng), '\0');
    std::string name;
    switch (rng.below(4)) {
        case 0:
            name = first + "." + last;
            break;
        case 1:
            name = first.substr(0, 1) + last;
            break;
        case 2:
            name = first;
            append_digits(name, rng, 2);
            break;
        default:
            name = first + "_" + last;
            break;
    }
    return name;
}

void append_words(const Locale &locale, Rng &rng, std::string &out) {
    const uint64_t count = 2 + rng.below(3);
    for (uint64_t i = 0; i < count; ++i) {
        if (i > 0) {
            out += ' ';
        }
        out += pick(locale.words, rng);
    }
}

void append_path(const Locale &locale, Rng &rng, std::string &out) {
    // Relative and without "..": inside whatever workspace the target runs in.
    out += pick(locale.directories, rng);
    out += '/';
    out += pick(locale.file_stems, rng);
    out += '_';
    out += std::to_string(rng.between(2015, 2025));
    out += '.';
    out += kExtensions[rng.below(std::size(kExtensions))];
}

void append_hex(Rng &rng, std::string &out) {
    static const char kHex[] = "0123456789abcdef";
    const int64_t bytes = rng.between(8, 32);  // hex keeps arbitrary bytes valid JSON text
    for (int64_t i = 0; i < 2 * bytes; ++i) {
        out += kHex[rng.below(16)];
    }
}

// UTF-8 letters of the built-in lists and their ASCII spelling.
struct Transliteration {
    string_view from;
    string_view to;
};
constexpr Transliteration kTransliterations[] = {
    {"ä", "ae"}, {"ö", "oe"}, {"ü", "ue"}, {"Ä", "ae"}, {"Ö", "oe"}, {"Ü", "ue"}, {"ß", "ss"},
    {"ı", "i"},  {"ş", "s"},  {"Ş", "s"},  {"ë", "e"},  {"é", "e"},  {"è", "e"},  {"ç", "c"}};

}  // namespace

std::string ascii_slug(string_view text, char separator) {
    std::string out;
    bool pending = false;  // a separator is due before the next letter
    for (std::size_t i = 0; i < text.size();) {
        string_view letters;
        std::size_t length = 1;
        const auto c = static_cast<unsigned char>(text[i]);
        if (std::isalnum(c) != 0) {
            letters = text.substr(i, 1);
        } else {
            for (const Transliteration &t : kTransliterations) {
                if (text.substr(i, t.from.size()) == t.from) {
                    letters = t.to;
                    length = t.from.size();
                    break;
                }
            }
        }
        if (letters.empty()) {
            pending = !out.empty();
        } else {
            if (pending && separator != '\0') {
                out += separator;
            }
            pending = false;
            for (const char l : letters) {
                out += static_cast<char>(std::tolower(static_cast<unsigned char>(l)));
            }
        }
        i += length;
    }
    return out;
}

void append_text(Generator generator, const Locale &locale, Rng &rng, std::string &out) {
    switch (generator) {
        case Generator::first_name:
            out += pick(locale.first_names, rng);
            return;
        case Generator::last_name:
            out += pick(locale.last_names, rng);
            return;
        case Generator::full_name:
            expand("{first} {last}", locale, rng, out);
            return;
        case Generator::username:
            out += account_name(locale, rng);
            return;
        case Generator::email:
            out += account_name(locale, rng);
            out += '@';
            out += pick(locale.email_domains, rng);
            return;
        case Generator::url:
            // A company's site under a reserved domain: realistic, and never anyone's host.
            out += "https://www.";
            out += ascii_slug(pick(locale.last_names, rng), '-');
            out += '.';
            out += pick(locale.email_domains, rng);
            out += '/';
            out += pick(locale.url_paths, rng);
            return;
        case Generator::phone:
            expand(pick(locale.phone_formats, rng), locale, rng, out);
            return;
        case Generator::company:
            expand(pick(locale.company_formats, rng), locale, rng, out);
            return;
        case Generator::street:
            expand(locale.street_format, locale, rng, out);
            return;
        case Generator::city:
            out += pick(locale.cities, rng);
            return;
        case Generator::postcode:
            expand("{postcode}", locale, rng, out);
            return;
        case Generator::country:
            out += pick(locale.countries, rng);
            return;
        case Generator::address:
            expand(locale.address_format, locale, rng, out);
            return;
        case Generator::date:
            out += sbx::support::iso_date(rng.between(kFirstDay, kLastDay));
            return;
        case Generator::birthday:
            out += sbx::support::iso_date(rng.between(kFirstBirthday, kLastBirthday));
            return;
        case Generator::path:
            append_path(locale, rng, out);
            return;
        case Generator::bytes:
            append_hex(rng, out);
            return;
        case Generator::text:
        case Generator::integer:
        case Generator::number:
        case Generator::boolean:
        case Generator::choice:
        case Generator::json:
            break;
    }
    append_words(locale, rng, out);
}

}  // namespace sbx_faker
