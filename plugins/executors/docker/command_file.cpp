// The command file's format is the smallest docker-run-init can read without a parser:
// NUL-terminated items, the environment first (never an empty item: a name is not empty),
// an empty item, then argv (whose items may be empty).
#include "command_file.hpp"

#include <algorithm>
#include <fstream>
#include <stdexcept>

#include <sbx/utf8.hpp>

#include "container_plan.hpp"
#include "support/run_spec.hpp"

namespace sbx::docker {

bool needs_command_file(const RunSpec &spec) {
    return !std::all_of(spec.argv.begin(), spec.argv.end(), is_valid_utf8) ||
           !std::all_of(spec.env.begin(), spec.env.end(),
                        [](const auto &variable) { return is_valid_utf8(variable.second); });
}

std::vector<std::string> command_through_file(const RunSpec &spec,
                                              const std::vector<std::string> &command,
                                              const std::string &host_path,
                                              const std::string &container_path) {
    std::string text;
    for (const auto &[name, value] : spec.env) {
        if (!is_valid_utf8(value)) {
            text += name;
            text += '=';
            text += value;
            text += '\0';
        }
    }
    text += '\0';
    for (size_t i = 1; i < command.size(); ++i) {
        text += command[i];
        text += '\0';
    }
    std::ofstream out(host_path, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!out.flush()) {
        throw std::runtime_error("cannot write the run's command file " + host_path);
    }
    return {kRunInitMount, "--command-file", container_path};
}

}  // namespace sbx::docker
