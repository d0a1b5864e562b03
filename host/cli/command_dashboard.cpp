#include "cli_context.hpp"
#include "util/errors.hpp"

namespace sbx::cli {

int run_dashboard_command(CliContext & /*context*/, const std::vector<std::string> & /*args*/) {
    throw InputError("not yet");
}

}  // namespace sbx::cli
