// Best effort like the v2 reads: a file that cannot be read leaves its counter unknown.
#include "cgroup_v1_files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <sbx/unique_fd.hpp>

namespace sbx::support {
namespace {

std::optional<std::uint64_t> file_value(const std::string &path) {
    const auto text = read_kernel_file(path);
    return text ? single_value(*text) : std::nullopt;
}

std::optional<std::uint64_t> file_key(const std::string &path, const char *key) {
    const auto text = read_kernel_file(path);
    return text ? flat_keyed_value(*text, key) : std::nullopt;
}

}  // namespace

CgroupV1Memory read_cgroup_v1_memory(const std::string &folder) {
    return {file_key(folder + "/memory.oom_control", "oom_kill"),
            file_value(folder + "/memory.max_usage_in_bytes")};
}

std::optional<std::uint64_t> read_cgroup_v1_pids_refused(const std::string &folder) {
    return file_key(folder + "/pids.events", "max");
}

CgroupV1Throttling read_cgroup_v1_throttling(const std::string &folder) {
    const auto stat = read_kernel_file(folder + "/cpu.stat");
    if (!stat) {
        return {};
    }
    return {flat_keyed_value(*stat, "nr_throttled"), flat_keyed_value(*stat, "throttled_time")};
}

CgroupV1CpuTime read_cgroup_v1_cpu_time(const std::string &folder) {
    return {file_value(folder + "/cpuacct.usage_user"), file_value(folder + "/cpuacct.usage_sys")};
}

bool has_cgroup_v1_cpu_time(const std::string &folder) {
    return read_kernel_file(folder + "/cpuacct.usage_user").has_value();
}

std::optional<BlockIoBytes> read_cgroup_v1_block_io(const std::string &folder) {
    auto text = read_kernel_file(folder + "/blkio.throttle.io_service_bytes_recursive");
    if (!text) {
        text = read_kernel_file(folder + "/blkio.throttle.io_service_bytes");
    }
    if (!text) {
        return std::nullopt;
    }
    // A file with no device line is a cgroup that has done no I/O yet: zero, not unknown.
    return block_io_bytes(*text).value_or(BlockIoBytes{});
}

bool reset_cgroup_v1_memory_peak(const std::string &folder) {
    const UniqueFd fd(
        ::open((folder + "/memory.max_usage_in_bytes").c_str(), O_WRONLY | O_CLOEXEC));
    return fd.valid() && ::write(fd.get(), "0", 1) == 1;
}

}  // namespace sbx::support
