// Parsing a command's own options, the same way for every command: no prefix guessing
// (`--json` must never become `--json-logs`, nor `--rep` `--repetitions`), and every
// parse error an InputError that names the command.
#pragma once

#include <boost/program_options.hpp>
#include <set>
#include <string>
#include <vector>

namespace sbx::cli {

// Throws InputError "<command>: <what is wrong>; <hint>" (hint default: see --help).
boost::program_options::variables_map parse_options(
    const std::string &command, const std::vector<std::string> &args,
    const boost::program_options::options_description &description,
    const boost::program_options::positional_options_description &positional = {},
    const std::string &hint = "run `sandbox-runner --help`");

// The names of the options the command line wrote out: a bool_switch is in `vm` whether
// given or not, so only those not defaulted count.
std::set<std::string> written_options(const boost::program_options::variables_map &vm);

}  // namespace sbx::cli
