// Acting inside a network namespace from a multi-threaded plugin: making a socket there,
// running a tool there, and making a namespace at all without root.
//
// setns() into a network namespace needs CAP_SYS_ADMIN over the user namespace that owns it
// and over the caller's own, which a normal user never has in the machine's. So each act
// happens in a short-lived child (clone(CLONE_VM|CLONE_VFORK), raw system calls only) that
// first enters the owning user namespace when that is not the caller's: the user who made a
// user namespace may enter it and then holds every capability inside, over its network
// namespace too. A socket keeps the namespace it was made in, so the caller binds, connects
// and reads it from where it is; the kernel checks those against the owning user namespace,
// over which the creator's processes already hold every capability.
#pragma once

#include <string>
#include <vector>

#include <sbx/unique_fd.hpp>

namespace sbx::support {

class NetworkEntry {
  public:
    // Opens the namespace at `netns_path` (/run/netns/NAME, /proc/PID/fd/N) and finds its
    // owner. Throws sbx::Error naming the path when it is not a network namespace.
    explicit NetworkEntry(std::string netns_path);

    [[nodiscard]] const std::string &path() const { return path_; }
    [[nodiscard]] int netns_fd() const { return netns_.get(); }
    // The owning user namespace when it is not the caller's own, else -1.
    [[nodiscard]] int userns_fd() const { return userns_.get(); }

    // socket(domain, type | SOCK_CLOEXEC, protocol) inside. Throws sbx::Error with `what`.
    [[nodiscard]] UniqueFd socket(int domain, int type, int protocol,
                                  const std::string &what) const;

  private:
    std::string path_;
    UniqueFd netns_;
    UniqueFd userns_;
};

// Starts argv (argv[0] absolute) inside `entry` with the given descriptors as its stdin,
// stdout and stderr; in a user namespace of a normal user it keeps CAP_NET_ADMIN and
// CAP_NET_RAW there (ambient), which ip, tc and iptables need. Returns the pid to wait for.
// Throws sbx::Error naming the step that failed.
pid_t spawn_inside(const NetworkEntry &entry, const std::vector<std::string> &argv, int stdin_fd,
                   int stdout_fd, int stderr_fd);

// A user namespace mapping the caller's uid and gid to themselves, owning a network
// namespace with loopback up: the network namespace a normal user can make. Both live while
// this object holds them open, and no longer: no process, no name, nothing left after a
// crash.
class UserNetwork {
  public:
    // Throws sbx::Error(SBX_UNSUPPORTED) saying what to enable when the kernel refuses.
    UserNetwork();

    // /proc/<pid>/fd/<n>: a path any process of this user can open (the executor's `netns`).
    [[nodiscard]] std::string path() const;

  private:
    UniqueFd netns_;
    UniqueFd userns_;
};

}  // namespace sbx::support
