// Shared set-up of the matrix commands.
#include "matrix_command.hpp"

#include <cstdio>

#include "cluster_placement.hpp"
#include "config/setting_values.hpp"
#include "option_parsing.hpp"
#include "util/errors.hpp"

namespace sbx::cli {

namespace po = boost::program_options;

po::variables_map parse_matrix_command(const std::string &command,
                                       const std::vector<std::string> &args,
                                       po::options_description &description,
                                       const po::positional_options_description &positional,
                                       MatrixOptions &options) {
    int workers = 0;
    description.add_options()("repetitions", po::value(&options.repetitions),
                              "runs per cell (default 1)")("seed", po::value(&options.seed),
                                                           "seed for inputs (default random)")(
        "workers", po::value(&workers), "runs executed at once (default: settings' workers)")(
        "json", po::bool_switch(&options.json), "print the result as JSON")(
        "keep-workspaces", po::bool_switch(&options.keep_workspaces),
        "keep each run's workspace directory")("on", po::value(&options.on),
                                               "where the runs are made: local or slurm");
    auto vm = parse_options(command, args, description, positional);
    if (options.repetitions < 1 || options.repetitions > 1000000) {
        throw InputError(command + ": --repetitions " + std::to_string(options.repetitions) +
                         " must be from 1 to 1000000");
    }
    if (vm.count("seed") && options.seed < 0) {
        throw InputError(command + ": --seed " + std::to_string(options.seed) +
                         " must be a whole number from 0 up; leave it out for a random seed");
    }
    if (vm.count("workers") && (workers < 1 || workers > static_cast<int>(config::kMaxWorkers))) {
        throw InputError(command + ": --workers " + std::to_string(workers) +
                         " must be from 1 to " + std::to_string(config::kMaxWorkers));
    }
    options.workers = workers > 0 ? static_cast<unsigned>(workers) : 0;
    if (vm.count("on")) {
        options.on = checked_placement(command, options.on);
    }
    return vm;
}

unsigned effective_workers(unsigned workers, const config::Settings &settings) {
    return workers != 0 ? workers : std::max(1u, settings.workers);
}

int gate_exit(const std::string &failure) {
    if (failure.empty()) {
        return kExitOk;
    }
    std::fprintf(stderr, "sandbox-runner: %s\n", failure.c_str());
    return kExitGateFailed;
}

engine::MatrixContext matrix_context(CliContext &context, store::Store &store, int64_t session,
                                     bool recover, engine::RunObserver *observer,
                                     engine::RemoteRuns *remote) {
    return {context.settings,
            context.registry(),
            store,
            session,
            std::filesystem::current_path(),
            context.settings.state_folder(),
            recover,
            observer,
            remote,
            context.shard};
}

}  // namespace sbx::cli
