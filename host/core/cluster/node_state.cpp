#include "cluster/node_state.hpp"

#include <unistd.h>

namespace sbx::cluster {

std::filesystem::path slurm_root(const config::Settings &settings) {
    return std::filesystem::absolute(settings.slurm.shared_dir.empty()
                                         ? std::filesystem::path(settings.data_dir) / "slurm"
                                         : std::filesystem::path(settings.slurm.shared_dir));
}

std::string node_name() {
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    return host[0] != '\0' ? host : "unknown-node";
}

std::filesystem::path node_state_folder(const std::filesystem::path &root) {
    return root / ("nodes-" + std::to_string(::geteuid())) / node_name() / "state";
}

}  // namespace sbx::cluster
