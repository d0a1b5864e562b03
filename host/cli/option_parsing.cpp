// Command option parsing.
#include "option_parsing.hpp"

#include "util/errors.hpp"

namespace sbx::cli {

namespace po = boost::program_options;

po::variables_map parse_options(const std::string &command, const std::vector<std::string> &args,
                                const po::options_description &description,
                                const po::positional_options_description &positional,
                                const std::string &hint) {
    po::variables_map vm;
    try {
        po::store(po::command_line_parser(args)
                      .options(description)
                      .positional(positional)
                      .style(po::command_line_style::default_style &
                             ~po::command_line_style::allow_guessing)
                      .run(),
                  vm);
        po::notify(vm);
    } catch (const po::error &e) {
        throw InputError(command + ": " + e.what() + "; " + hint);
    }
    return vm;
}

std::set<std::string> written_options(const po::variables_map &vm) {
    std::set<std::string> written;
    for (const auto &[name, value] : vm) {
        if (!value.defaulted()) {
            written.insert(name);
        }
    }
    return written;
}

}  // namespace sbx::cli
