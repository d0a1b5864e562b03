#include "processes.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>

namespace sbx::test {

std::string proc_file(pid_t pid, const char *name) {
    const std::string path = "/proc/" + std::to_string(pid) + "/" + name;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return {};
    }
    std::string text;
    char buffer[4096];
    ssize_t got = 0;
    while ((got = ::read(fd, buffer, sizeof buffer)) > 0) {
        text.append(buffer, static_cast<std::size_t>(got));
    }
    ::close(fd);
    return got < 0 ? std::string() : text;
}

std::vector<LiveProcess> live_processes() {
    std::vector<LiveProcess> found;
    const std::unique_ptr<DIR, int (*)(DIR *)> proc(::opendir("/proc"), ::closedir);
    if (!proc) {
        return found;
    }
    const pid_t self = ::getpid();
    while (const dirent *entry = ::readdir(proc.get())) {
        char *end = nullptr;
        const long pid = std::strtol(entry->d_name, &end, 10);
        if (*end != '\0' || pid <= 0 || pid == self) {
            continue;
        }
        found.push_back({static_cast<pid_t>(pid), proc_file(static_cast<pid_t>(pid), "cmdline")});
    }
    return found;
}

std::vector<pid_t> processes_whose_cmdline_contains(std::string_view needle) {
    std::vector<pid_t> found;
    for (const LiveProcess &process : live_processes()) {
        if (process.cmdline.find(needle) != std::string::npos) {
            found.push_back(process.pid);
        }
    }
    return found;
}

}  // namespace sbx::test
