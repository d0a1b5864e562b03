// `presets generate`: prints (or writes) the presets the generator makes for the options,
// as a JSON array that `run --preset-file` accepts.
#include <spdlog/spdlog.h>
#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>
#include <optional>
#include <random>

#include "cli_context.hpp"
#include "option_parsing.hpp"
#include "presets/checked_generation.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"
#include "util/number_parse.hpp"

namespace po = boost::program_options;

namespace sbx::cli {
namespace {

constexpr const char *kUsage =
    "presets generate [--profiles P[+P]...] [--count N] [--severity low|high] [--seed S] "
    "[--out FILE] [--canonical]";
// More would be a typo rather than a plan, and each preset is held in memory.
constexpr uint64_t kMaxCount = 100000;

[[noreturn]] void bad_option(const std::string &problem, const std::string &hint) {
    throw InputError("presets generate: " + problem + "; " + hint);
}

// A whole number from digits only. Rationale: program_options reads "-5" into an unsigned
// type as 2^64 - 5, so numbers are parsed here.
std::optional<uint64_t> whole_number(const std::string &text) {
    return util::parse_uint64(text, util::LeadingPlus::refused);
}

// The options as written; checked one by one below.
struct Words {
    std::optional<std::vector<std::string>> profiles;
    std::optional<std::string> count, severity, seed, out;
    bool canonical = false;
};

struct GenerateCommand {
    presets::GenerateOptions options;
    bool seed_given = false;
    std::string out;  // "" = stdout
};

Words read_words(const std::vector<std::string> &args) {
    std::vector<std::string> profiles, unexpected;
    std::string count, severity, seed, out;
    Words words;
    // Stray words go to "unexpected" to be named in the error; without a positional
    // description program_options would drop them silently.
    po::options_description description("presets generate options");
    description.add_options()("profiles", po::value(&profiles)->multitoken()->composing())(
        "count", po::value(&count))("severity", po::value(&severity))("seed", po::value(&seed))(
        "out", po::value(&out))("canonical", po::bool_switch(&words.canonical))(
        "unexpected", po::value(&unexpected));
    po::positional_options_description stray;
    stray.add("unexpected", -1);
    const auto vm =
        parse_options("presets generate", args, description, stray, std::string("write ") + kUsage);
    if (!unexpected.empty()) {
        bad_option("unexpected argument '" + unexpected.front() + "'",
                   std::string("write ") + kUsage);
    }
    const auto if_given = [&](const char *name, const std::string &value) {
        return vm.count(name) != 0 ? std::optional<std::string>(value) : std::nullopt;
    };
    if (vm.count("profiles") != 0) {
        words.profiles = profiles;
    }
    words.count = if_given("count", count);
    words.severity = if_given("severity", severity);
    words.seed = if_given("seed", seed);
    words.out = if_given("out", out);
    return words;
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
            (void)presets::resolve_profile_combination(name);
        } catch (const InputError &e) {
            throw InputError(std::string("presets generate: --profiles: ") + e.what());
        }
    }
    return names;
}

int checked_count(const std::string &count) {
    const auto parsed = whole_number(count);
    if (!parsed || *parsed < 1 || *parsed > kMaxCount) {
        bad_option(
            "--count '" + count + "' is not a whole number from 1 to " + std::to_string(kMaxCount),
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

GenerateCommand parse(const std::vector<std::string> &args) {
    const Words words = read_words(args);
    GenerateCommand command;
    command.options.canonical = words.canonical;
    if (words.profiles) {
        command.options.profiles = checked_profiles(*words.profiles);
        // One preset per profile unless --count says otherwise.
        command.options.count = static_cast<int>(command.options.profiles.size());
    }
    if (words.severity) {
        command.options.severity = presets::parse_severity(*words.severity);
        if (!command.options.severity) {
            bad_option("--severity '" + *words.severity + "' is not a severity",
                       "write --severity low or --severity high, or leave it out");
        }
    }
    if (words.canonical && words.count) {
        bad_option("--count does not apply with --canonical (one preset per profile and severity)",
                   "leave out --count, or --canonical for random presets");
    }
    if (words.canonical && words.seed) {
        bad_option("--seed does not apply with --canonical (canonical presets are fixed)",
                   "leave out --seed, or --canonical for random presets");
    }
    if (words.count) {
        command.options.count = checked_count(*words.count);
    }
    if (words.seed) {
        command.options.seed = checked_seed(*words.seed);
        command.seed_given = true;
    }
    if (words.out) {
        check_out(*words.out);
        command.out = *words.out;
    }
    return command;
}

// `preset_env`: known preset keys in the environment replace the generated values.
int generate(const std::vector<std::string> &args, bool preset_env) {
    GenerateCommand command = parse(args);
    if (!command.options.canonical && !command.seed_given) {
        std::random_device device;
        command.options.seed = (uint64_t{device()} << 32U) | device();
        spdlog::info("presets generate: seed {} (pass --seed {} to generate the same presets)",
                     command.options.seed, command.options.seed);
    }
    const std::string text =
        presets::generate_checked_presets(command.options, preset_env).dump(2) + "\n";
    if (command.out.empty()) {
        std::cout << text << std::flush;
    } else {
        write_file_atomically(command.out, text);
    }
    return kExitOk;
}

}  // namespace

int run_presets_command(CliContext &context, const std::vector<std::string> &args) {
    if (args.empty()) {
        throw InputError(std::string("presets: missing subcommand; write `") + kUsage + "`");
    }
    if (args[0] != "generate") {
        throw InputError("presets: unknown subcommand '" + args[0] + "'; write `" + kUsage + "`");
    }
    return generate(std::vector<std::string>(args.begin() + 1, args.end()),
                    context.settings.preset_env);
}

}  // namespace sbx::cli
