// `presets generate`: prints (or writes) the presets the generator makes for the options,
// as a JSON array that `run --preset-file` accepts.
#include <spdlog/spdlog.h>
#include <boost/program_options.hpp>
#include <iostream>
#include <optional>
#include <random>

#include "cli_context.hpp"
#include "option_parsing.hpp"
#include "presets/checked_generation.hpp"
#include "presets/generate_request.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"

namespace po = boost::program_options;

namespace sbx::cli {
namespace {

constexpr const char *kUsage =
    "presets generate [--profiles P[+P]...] [--count N] [--severity low|high] [--seed S] "
    "[--out FILE] [--canonical]";

presets::GenerateWords read_words(const std::vector<std::string> &args) {
    std::vector<std::string> profiles, unexpected;
    std::string count, severity, seed, out;
    presets::GenerateWords words;
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
        throw InputError("presets generate: unexpected argument '" + unexpected.front() +
                         "'; write " + kUsage);
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

// `preset_env`: known preset keys in the environment replace the generated values.
int generate(const std::vector<std::string> &args, bool preset_env) {
    presets::GenerateRequest command = presets::check_generate_words(read_words(args));
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
