// Checking `presets generate`'s words: profiles split on commas and resolved, numbers from
// digits only, the options that do not go together refused.
#include "presets/generate_request.hpp"

#include <filesystem>

#include "util/errors.hpp"
#include "util/number_parse.hpp"

namespace sbx::presets {
namespace {

[[noreturn]] void bad_option(const std::string &problem, const std::string &hint) {
    throw InputError("presets generate: " + problem + "; " + hint);
}

// A whole number from digits only. Rationale: program_options reads "-5" into an unsigned
// type as 2^64 - 5, so numbers are parsed here.
std::optional<uint64_t> whole_number(const std::string &text) {
    return util::parse_uint64(text, util::LeadingPlus::refused);
}

// "--profiles a b,c" -> {a, b, c}: commas separate too, as in FAILURE_MODES.
std::vector<std::string> split_profiles(const std::vector<std::string> &words) {
    std::vector<std::string> names;
    for (const auto &word : words) {
        size_t start = 0;
        while (start <= word.size()) {
            const size_t end = std::min(word.find(',', start), word.size());
            if (end > start) {
                names.push_back(word.substr(start, end - start));
            }
            start = end + 1;
        }
    }
    return names;
}

// Canonical names or aliases, or combinations of them joined with '+'; an unknown one names
// the option and lists the known names.
std::vector<std::string> checked_profiles(const std::vector<std::string> &words) {
    auto names = split_profiles(words);
    if (names.empty()) {
        bad_option("--profiles names no profile", "write e.g. --profiles hostile_input");
    }
    for (const auto &name : names) {
        try {
            (void)resolve_profile_combination(name);
        } catch (const InputError &e) {
            throw InputError(std::string("presets generate: --profiles: ") + e.what());
        }
    }
    return names;
}

int checked_count(const std::string &count) {
    const auto parsed = whole_number(count);
    if (!parsed || *parsed < 1 || *parsed > kMaxGeneratedPresets) {
        bad_option("--count '" + count + "' is not a whole number from 1 to " +
                       std::to_string(kMaxGeneratedPresets),
                   "write e.g. --count 5");
    }
    return static_cast<int>(*parsed);
}

uint64_t checked_seed(const std::string &seed) {
    const auto parsed = whole_number(seed);
    if (!parsed) {
        bad_option("--seed '" + seed + "' is not a whole number from 0 to 18446744073709551615",
                   "write e.g. --seed 42");
    }
    return *parsed;
}

void check_out(const std::string &out) {
    if (out.empty()) {
        bad_option("--out needs a file name", "write e.g. --out presets.json");
    }
    std::error_code ignored;
    if (std::filesystem::is_directory(out, ignored)) {
        bad_option("--out '" + out + "' is a directory",
                   "give a file path, e.g. --out " +
                       (std::filesystem::path(out) / "presets.json").string());
    }
}

// --count and --seed shape random presets; canonical ones are fixed, one per profile and
// severity.
void refuse_random_options_with_canonical(const GenerateWords &words) {
    if (words.canonical && words.count) {
        bad_option("--count does not apply with --canonical (one preset per profile and severity)",
                   "leave out --count, or --canonical for random presets");
    }
    if (words.canonical && words.seed) {
        bad_option("--seed does not apply with --canonical (canonical presets are fixed)",
                   "leave out --seed, or --canonical for random presets");
    }
}

}  // namespace

GenerateRequest check_generate_words(const GenerateWords &words) {
    GenerateRequest request;
    request.options.canonical = words.canonical;
    if (words.profiles) {
        request.options.profiles = checked_profiles(*words.profiles);
        // One preset per profile unless --count says otherwise.
        request.options.count = static_cast<int>(request.options.profiles.size());
    }
    if (words.severity) {
        request.options.severity = parse_severity(*words.severity);
        if (!request.options.severity) {
            bad_option("--severity '" + *words.severity + "' is not a severity",
                       "write --severity low or --severity high, or leave it out");
        }
    }
    refuse_random_options_with_canonical(words);
    if (words.count) {
        request.options.count = checked_count(*words.count);
    }
    if (words.seed) {
        request.options.seed = checked_seed(*words.seed);
        request.seed_given = true;
    }
    if (words.out) {
        check_out(*words.out);
        request.out = *words.out;
    }
    return request;
}

}  // namespace sbx::presets
