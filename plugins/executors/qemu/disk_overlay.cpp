// qemu-img does the work (it is in qemu-utils); we only pick the backing format, which
// qemu-img insists on being told since 6.1.
#include "disk_overlay.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <vector>

extern char **environ;

namespace sbx::qemu {
namespace {

std::string backing_format(const std::string &image) {
    std::ifstream in(image, std::ios::binary);
    char magic[4] = {};
    in.read(magic, sizeof magic);
    return in && std::memcmp(magic, "QFI\xfb", 4) == 0 ? "qcow2" : "raw";
}

}  // namespace

void create_disk_overlay(const std::string &image, const std::string &overlay) {
    std::vector<std::string> args{
        "qemu-img", "create", "-q",   "-f", "qcow2", "-F", backing_format(image),
        "-b",       image,    overlay};
    std::vector<char *> argv;
    argv.reserve(args.size() + 1);
    for (auto &arg : args) {
        argv.push_back(arg.data());
    }
    argv.push_back(nullptr);
    const std::string log = overlay + ".log";
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    pid_t pid = 0;
    const int spawned = ::posix_spawnp(&pid, "qemu-img", &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) {
        throw std::runtime_error(
            "cannot run qemu-img to make the disk overlay (install "
            "qemu-utils): " +
            std::string(std::strerror(spawned)));
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::ifstream in(log);
        const std::string said((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
        throw std::runtime_error("qemu-img could not make an overlay over '" + image +
                                 "': " + said);
    }
}

}  // namespace sbx::qemu
