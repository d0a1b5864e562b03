// Files in, files out. Copies, not bind mounts: the host needs no privilege. The share is
// the guest's to write (QEMU's security_model=none makes its symlinks and FIFOs real host
// files), so everything read back is opened without following a link, only regular files
// are read, and only as many bytes as a result can hold.
#include "job_exchange.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include <sbx/unique_fd.hpp>

#include "guest_tree.hpp"

namespace sbx::qemu {
namespace {

namespace fs = std::filesystem;

fs::path job_folder(const std::string &share, std::uint64_t id) {
    return fs::path(share) / "jobs" / std::to_string(id);
}

// Job files are the agent's (root in the guest) and never the target's (nobody).
void write_file(const fs::path &path, const std::string &content) {
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(content.data(), static_cast<std::streamsize>(content.size()));
        if (!out.flush()) {
            throw std::runtime_error("cannot write " + path.string());
        }
    }
    fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write);
}

// `name` in the folder open as `folder`: a regular file (no link, FIFO or device), at most
// `cap` bytes of it. Throws std::runtime_error naming `shown` otherwise.
std::string read_regular(int folder, const char *name, std::size_t cap, const std::string &shown) {
    const UniqueFd file(::openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    struct stat info {};
    if (file.get() < 0 || ::fstat(file.get(), &info) != 0 || !S_ISREG(info.st_mode)) {
        throw std::runtime_error(shown + "/" + name + " is missing or not a regular file");
    }
    std::string text;
    char chunk[65536];
    ssize_t got = 0;
    while (text.size() < cap && (got = ::read(file.get(), chunk, sizeof chunk)) > 0) {
        text.append(chunk, std::min(static_cast<std::size_t>(got), cap - text.size()));
    }
    return text;
}

// The job folder, opened without following a link at any step below the share.
int open_job_folder(const std::string &share, std::uint64_t id) {
    const UniqueFd jobs(
        ::open((share + "/jobs").c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    const int folder = jobs.get() < 0 ? -1
                                      : ::openat(jobs.get(), std::to_string(id).c_str(),
                                                 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (folder < 0) {
        throw std::runtime_error("the job folder " + std::to_string(id) +
                                 " is missing or not a folder");
    }
    return folder;
}

std::string nul_joined(const std::vector<std::string> &items) {
    std::string text;
    for (const auto &item : items) {
        text += item;
        text += '\0';
    }
    return text;
}

// Copies what `from` holds into `to` (made if missing): folders, regular files and symlinks
// (as links, never followed); FIFOs, sockets and devices are skipped. Each file gets `mode`
// masked by its own (so an executable stays one); nothing stops at an entry it cannot copy.
// Returns the entries skipped or failed.
std::size_t copy_tree(const fs::path &from, const fs::path &to, fs::perms file_mode,
                      fs::perms folder_mode) {
    std::size_t skipped = 0;
    std::error_code error;
    fs::create_directories(to, error);
    fs::permissions(to, folder_mode, error);
    for (fs::directory_iterator it(from, error), end; !error && it != end; it.increment(error)) {
        const fs::path target = to / it->path().filename();
        std::error_code step;
        const auto status = fs::symlink_status(it->path(), step);
        if (fs::is_symlink(status)) {
            fs::remove_all(target, step);
            fs::copy_symlink(it->path(), target, step);
        } else if (fs::is_directory(status)) {
            skipped += copy_tree(it->path(), target, file_mode, folder_mode);
        } else if (fs::is_regular_file(status)) {
            fs::copy_file(it->path(), target, fs::copy_options::overwrite_existing, step);
            if (!step) {
                const bool executable =
                    (status.permissions() & fs::perms::owner_exec) != fs::perms::none;
                fs::permissions(target,
                                executable
                                    ? file_mode
                                    : file_mode & ~(fs::perms::owner_exec | fs::perms::group_exec |
                                                    fs::perms::others_exec),
                                step);
            }
        } else {
            ++skipped;
            continue;
        }
        skipped += step ? 1 : 0;
    }
    return skipped + (error ? 1 : 0);
}

}  // namespace

std::uint64_t AgentReport::number(const std::string &key) const {
    const auto found = fields.find(key);
    return found == fields.end() ? 0 : std::strtoull(found->second.c_str(), nullptr, 10);
}

std::string AgentReport::text(const std::string &key) const {
    const auto found = fields.find(key);
    return found == fields.end() ? std::string() : found->second;
}

std::string guest_job_dir(std::uint64_t id) {
    return "/mnt/jobs/" + std::to_string(id);
}

void write_job(const std::string &share, std::uint64_t id, const support::RunSpec &spec,
               const std::string &workspace) {
    const fs::path folder = job_folder(share, id);
    fs::remove_all(folder);
    fs::create_directories(folder / "work");
    const std::string work = guest_job_dir(id) + "/work";
    // The same base environment as the local executor gives, in the guest's terms.
    std::vector<std::string> env{"PATH=/bin:/sbin:/usr/bin:/usr/sbin", "HOME=" + work,
                                 "TMPDIR=" + work, "LANG=C.UTF-8"};
    for (const auto &[name, value] : spec.env) {
        std::string variable = name;
        variable += '=';
        variable += value;
        env.push_back(std::move(variable));
    }
    write_file(folder / "argv", nul_joined(spec.argv));
    write_file(folder / "env", nul_joined(env));
    write_file(folder / "stdin", spec.stdin_text);
    const auto &limits = spec.limits;
    std::string text;
    const auto put = [&text](const char *key, const std::string &value) {
        text += std::string(key) + " " + value + "\n";
    };
    // Limits beyond a year are no limits: the agent's clock arithmetic must not overflow.
    constexpr std::uint64_t kYearS = 365ULL * 24 * 3600;
    const auto sane = [](std::uint64_t value, std::uint64_t ceiling) {
        return value > ceiling ? 0 : value;
    };
    put("output_bytes", std::to_string(limits.output_bytes));
    put("timeout_ms", std::to_string(sane(limits.timeout_ms, kYearS * 1000)));
    put("memory_bytes", std::to_string(limits.memory_bytes));
    put("pids", std::to_string(limits.pids));
    put("cpu_cores", std::to_string(std::min(limits.cpu_cores, 1024.0)));
    put("cpu_time_s", std::to_string(limits.cpu_time_s > static_cast<double>(kYearS)
                                         ? 0
                                         : static_cast<std::uint64_t>(limits.cpu_time_s + 0.999)));
    put("disk_bytes", std::to_string(limits.disk_bytes));
    write_file(folder / "limits", text);
    // The target runs as nobody in the guest: it may change everything in its own copy.
    copy_tree(workspace, folder / "work", fs::perms::all & ~fs::perms::set_uid, fs::perms::all);
}

AgentReport read_report(const std::string &share, std::uint64_t id, std::size_t output_cap) {
    const UniqueFd folder(open_job_folder(share, id));
    const std::string shown = "job " + std::to_string(id);
    constexpr std::size_t kResultCap = std::size_t{64} * 1024;
    AgentReport report;
    std::istringstream lines(read_regular(folder.get(), "result", kResultCap, shown));
    std::string line;
    while (std::getline(lines, line)) {
        if (const size_t space = line.find(' '); space != std::string::npos) {
            report.fields[line.substr(0, space)] = line.substr(space + 1);
        }
    }
    report.stdout_text = read_regular(folder.get(), "stdout", output_cap, shown);
    report.stderr_text = read_regular(folder.get(), "stderr", output_cap, shown);
    return report;
}

std::size_t finish_job(const std::string &share, std::uint64_t id, const std::string &workspace) {
    const fs::path folder = job_folder(share, id);
    std::error_code ignored;
    std::size_t skipped = 0;
    // Only a real folder: a link planted in its place would make us copy what it names.
    if (fs::is_directory(fs::symlink_status(folder, ignored)) &&
        fs::is_directory(fs::symlink_status(folder / "work", ignored))) {
        for (fs::directory_iterator it(workspace, ignored), end; !ignored && it != end;
             it.increment(ignored)) {
            std::error_code each;
            fs::remove_all(it->path(), each);
        }
        // Back on the host: no set-id bits, no writes for group and others.
        skipped = copy_tree(folder / "work", workspace,
                            fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                fs::perms::others_read | fs::perms::others_exec,
                            fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                fs::perms::others_read | fs::perms::others_exec);
    }
    remove_guest_tree(folder.string());
    return skipped;
}

}  // namespace sbx::qemu
