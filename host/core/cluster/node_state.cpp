#include "cluster/node_state.hpp"

#include <unistd.h>

#include <cstdlib>

#include "util/process_identity.hpp"

namespace sbx::cluster {

std::filesystem::path slurm_root(const config::Settings &settings) {
    return std::filesystem::absolute(settings.slurm.shared_dir.empty()
                                         ? std::filesystem::path(settings.data_dir) / "slurm"
                                         : std::filesystem::path(settings.slurm.shared_dir));
}

std::string node_name() {
    return machine_name();
}

std::string slurm_node_name() {
    const char *name = std::getenv("SLURMD_NODENAME");
    return name != nullptr && name[0] != '\0' ? name : node_name();
}

std::filesystem::path node_state_folder(const std::filesystem::path &root) {
    return root / ("nodes-" + std::to_string(::geteuid())) / node_name() / "state";
}

}  // namespace sbx::cluster
