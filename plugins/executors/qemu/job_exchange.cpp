// Files in, files out. Copies, not bind mounts: the host needs no privilege, and a guest
// cannot reach a host file the workspace only links to (symlinks are copied as links).
#include "job_exchange.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace sbx::qemu {
namespace {

namespace fs = std::filesystem;

fs::path job_folder(const std::string &share, std::uint64_t id) {
    return fs::path(share) / "jobs" / std::to_string(id);
}

void write_file(const fs::path &path, const std::string &content) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    if (!out.flush()) {
        throw std::runtime_error("cannot write " + path.string());
    }
}

std::string read_file(const fs::path &path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string nul_joined(const std::vector<std::string> &items) {
    std::string text;
    for (const auto &item : items) {
        text += item;
        text += '\0';
    }
    return text;
}

// Copies the contents of `from` into `to` (made if missing), symlinks as symlinks.
void copy_contents(const fs::path &from, const fs::path &to) {
    fs::create_directories(to);
    for (const auto &entry : fs::directory_iterator(from)) {
        fs::copy(entry.path(), to / entry.path().filename(),
                 fs::copy_options::recursive | fs::copy_options::copy_symlinks |
                     fs::copy_options::overwrite_existing);
    }
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

void write_job(const std::string &share, std::uint64_t id, const local::RunSpec &spec,
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
    put("output_bytes", std::to_string(limits.output_bytes));
    put("timeout_ms", std::to_string(limits.timeout_ms));
    put("memory_bytes", std::to_string(limits.memory_bytes));
    put("pids", std::to_string(limits.pids));
    put("cpu_cores", std::to_string(limits.cpu_cores));
    put("cpu_time_s", std::to_string(static_cast<std::uint64_t>(limits.cpu_time_s + 0.999)));
    put("disk_bytes", std::to_string(limits.disk_bytes));
    write_file(folder / "limits", text);
    copy_contents(workspace, folder / "work");
}

AgentReport read_report(const std::string &share, std::uint64_t id) {
    const fs::path folder = job_folder(share, id);
    if (!fs::exists(folder / "result")) {
        throw std::runtime_error("the guest wrote no result for job " + std::to_string(id));
    }
    AgentReport report;
    std::ifstream in(folder / "result");
    std::string line;
    while (std::getline(in, line)) {
        if (const size_t space = line.find(' '); space != std::string::npos) {
            report.fields[line.substr(0, space)] = line.substr(space + 1);
        }
    }
    report.stdout_text = read_file(folder / "stdout");
    report.stderr_text = read_file(folder / "stderr");
    return report;
}

void finish_job(const std::string &share, std::uint64_t id, const std::string &workspace) {
    const fs::path folder = job_folder(share, id);
    std::error_code ignored;
    if (fs::exists(folder / "work")) {
        for (const auto &entry : fs::directory_iterator(workspace)) {
            fs::remove_all(entry.path());
        }
        copy_contents(folder / "work", workspace);
    }
    fs::remove_all(folder, ignored);
}

}  // namespace sbx::qemu
