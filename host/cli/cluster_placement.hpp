// `--on local|slurm` of the matrix commands, placed from a command's context: the
// placement itself is cluster/matrix_placement.
#pragma once

#include <string>
#include <vector>

#include "cli_context.hpp"
#include "cluster/matrix_placement.hpp"

namespace sbx::cli {

using cluster::checked_placement;

// A worker starts with the submitting host's global options.
class Placement : public cluster::MatrixPlacement {
  public:
    Placement(CliContext &context, const std::string &on, store::Store &store, int64_t session,
              bool recover, const std::string &command, const std::vector<std::string> &args,
              int64_t seed)
        : cluster::MatrixPlacement(
              context.settings,
              {context.options.program_path, context.options.config_path,
               context.options.plugin_dirs, context.options.log_level, context.options.json_logs},
              on, store, session, recover, command, args, seed) {}
};

}  // namespace sbx::cli
