// Files in, files out. Copies, not bind mounts: the host needs no privilege. The share is
// the guest's to write (QEMU's security_model=none makes its symlinks and FIFOs real host
// files), so everything read back is opened without following a link, only regular files
// are read, and only as many bytes as a result can hold.
#include "job_exchange.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include <sbx/unique_fd.hpp>

#include "guest_tree.hpp"
#include "support/number_parse.hpp"

namespace sbx::qemu {
namespace {

namespace fs = std::filesystem;

fs::path job_folder(const std::string &share, std::uint64_t id) {
    return fs::path(share) / "jobs" / std::to_string(id);
}

// Job files are the agent's (root in the guest) and never the target's (nobody): the
// request holds the run's stdin and environment. Rewritten in place, never replaced: the
// agent keeps the file open from run to run. Not through a link the guest planted, and
// never waiting on a FIFO put in its place.
void write_file(const fs::path &path, const std::string &content) {
    const UniqueFd file(::open(
        path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600));
    struct stat info {};
    if (!file || ::fstat(file.get(), &info) != 0 || !S_ISREG(info.st_mode) ||
        ::fchmod(file.get(), 0600) != 0) {
        throw std::runtime_error("cannot write " + path.string());
    }
    std::size_t done = 0;
    while (done < content.size()) {
        const ssize_t wrote = ::write(file.get(), content.data() + done, content.size() - done);
        if (wrote < 0 && errno == EINTR) {
            continue;
        }
        if (wrote <= 0) {
            throw std::runtime_error("cannot write " + path.string());
        }
        done += static_cast<std::size_t>(wrote);
    }
}

// `name` in the folder open as `folder`: a regular file (no link, FIFO or device), at most
// `cap` bytes of it from `offset` on. Throws std::runtime_error naming `shown` otherwise.
std::string read_regular(int folder, const char *name, std::size_t cap, const std::string &shown,
                         off_t offset) {
    const UniqueFd file(::openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    struct stat info {};
    if (file.get() < 0 || ::fstat(file.get(), &info) != 0 || !S_ISREG(info.st_mode) ||
        ::lseek(file.get(), offset, SEEK_SET) != offset) {
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
    return found == fields.end() ? 0 : support::parse_uint64(found->second).value_or(0);
}

std::string AgentReport::text(const std::string &key) const {
    const auto found = fields.find(key);
    return found == fields.end() ? std::string() : found->second;
}

std::string guest_job_dir(std::uint64_t id) {
    return "/mnt/jobs/" + std::to_string(id);
}

std::size_t write_job(const std::string &share, std::uint64_t id, const support::RunSpec &spec,
                      const std::string &workspace) {
    const fs::path folder = job_folder(share, id);
    // A new folder, or one finish_job emptied for reuse.
    std::error_code error;
    if (!fs::exists(fs::symlink_status(folder, error))) {
        fs::create_directories(folder / "work");
    } else if (!fs::is_directory(fs::symlink_status(folder, error)) ||
               !fs::is_directory(fs::symlink_status(folder / "work", error))) {
        throw std::runtime_error("the job folder " + folder.string() + " is not a folder");
    }
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
    // One file, read by the agent in one go (guest/job_request.hpp has the layout).
    std::string sections;
    const auto section = [&sections](const char *name, const std::string &content) {
        sections += std::string(name) + " " + std::to_string(content.size()) + "\n";
        sections += content;
    };
    section("argv", nul_joined(spec.argv));
    section("env", nul_joined(env));
    section("limits", text);
    section("stdin", spec.stdin_text);
    const std::string request = "request " + std::to_string(sections.size()) + "\n" + sections;
    write_file(folder / "job", request);
    // The target runs as nobody in the guest: it may change everything in its own copy.
    copy_tree(workspace, folder / "work", fs::perms::all & ~fs::perms::set_uid, fs::perms::all);
    return request.size();
}

AgentReport read_report(const std::string &share, std::uint64_t id, std::size_t request_bytes,
                        std::size_t output_cap) {
    const UniqueFd folder(open_job_folder(share, id));
    const std::string shown = "job " + std::to_string(id);
    // The head, then at most output_cap bytes of each output (guest/job.hpp).
    constexpr std::size_t kHeadCap = std::size_t{64} * 1024;
    const std::size_t cap =
        output_cap > (SIZE_MAX - kHeadCap) / 2 ? SIZE_MAX : kHeadCap + 2 * output_cap;
    const std::string text =
        read_regular(folder.get(), "job", cap, shown, static_cast<off_t>(request_bytes));
    const size_t head_end = text.find("\n\n");
    if (head_end == std::string::npos || head_end > kHeadCap) {
        throw std::runtime_error(shown + "/job has no result after its request");
    }
    AgentReport report;
    std::istringstream lines(text.substr(0, head_end + 1));
    std::string line;
    while (std::getline(lines, line)) {
        if (const size_t space = line.find(' '); space != std::string::npos) {
            report.fields[line.substr(0, space)] = line.substr(space + 1);
        }
    }
    // The kept lengths come from the guest: each is bounded by what the file holds.
    const std::string_view outputs = std::string_view(text).substr(head_end + 2);
    const std::size_t stdout_kept =
        std::min<std::uint64_t>(report.number("stdout_kept"), outputs.size());
    const std::size_t stderr_kept =
        std::min<std::uint64_t>(report.number("stderr_kept"), outputs.size() - stdout_kept);
    report.stdout_text = outputs.substr(0, std::min(stdout_kept, output_cap));
    report.stderr_text = outputs.substr(stdout_kept, std::min(stderr_kept, output_cap));
    return report;
}

FinishedJob finish_job(const std::string &share, std::uint64_t id, const std::string &workspace) {
    const fs::path folder = job_folder(share, id);
    std::error_code ignored;
    FinishedJob finished;
    // Only a real folder: a link planted in its place would make us copy what it names.
    if (fs::is_directory(fs::symlink_status(folder, ignored)) &&
        fs::is_directory(fs::symlink_status(folder / "work", ignored))) {
        for (fs::directory_iterator it(workspace, ignored), end; !ignored && it != end;
             it.increment(ignored)) {
            std::error_code each;
            fs::remove_all(it->path(), each);
        }
        // Back on the host: no set-id bits, no writes for group and others.
        finished.skipped =
            copy_tree(folder / "work", workspace,
                      fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                          fs::perms::others_read | fs::perms::others_exec,
                      fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                          fs::perms::others_read | fs::perms::others_exec);
        // Ready for the next run: an empty work/ and an empty job file (the request held
        // stdin and the environment). Anything left makes the folder unusable.
        // Not through a link the guest planted in its place: only the file itself.
        const UniqueFd job(::open((folder / "job").c_str(),
                                  O_WRONLY | O_TRUNC | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
        struct stat info {};
        const bool truncated = job && ::fstat(job.get(), &info) == 0 && S_ISREG(info.st_mode);
        finished.reusable = empty_guest_folder((folder / "work").string()) && truncated;
    }
    if (!finished.reusable) {
        remove_guest_tree(folder.string());
    }
    return finished;
}

}  // namespace sbx::qemu
