#include "cluster/stale_jobs.hpp"

#include <unistd.h>

#include <set>

#include "cluster/slurm_commands.hpp"
#include "util/process_identity.hpp"

namespace sbx::cluster {

std::vector<std::string> sweep_stale_jobs(bool dry_run) {
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    const std::string ours = std::string(kJobCommentPrefix) + host + " ";
    std::vector<std::string> found;
    std::set<std::string> arrays;  // each array once, however many tasks it lists
    for (const auto &job : project_jobs()) {
        if (job.comment.rfind(ours, 0) != 0 || identity_alive(job.comment.substr(ours.size()))) {
            continue;
        }
        const std::string array = job.job_id.substr(0, job.job_id.find('_'));
        if (!arrays.insert(array).second) {
            continue;
        }
        if (!dry_run) {
            cancel_job(array);
        }
        found.push_back("slurm job " + array + " (" + job.name + ", " + job.state + ")");
    }
    return found;
}

}  // namespace sbx::cluster
