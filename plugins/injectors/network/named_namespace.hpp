// A named network namespace (/run/netns/<name>, as `ip netns add` makes it) with loopback
// up, and the kernel objects around it this tool names "sbx-<host pid>-<n>".
#pragma once

#include <string>

namespace sbx::network {

// The names of the next namespace this process makes: the namespace "sbx-<host pid>-<n>"
// (n counts every namespace it made) and its host-side link, the same in base 36 so that it
// fits the kernel's 15-character interface names.
struct NetworkNames {
    std::string netns;
    std::string host_link;
};
NetworkNames next_names();
// True for names of that shape: only those are ever deleted by sweep.
bool is_our_name(const std::string &name);
// The host pid and the host-side link name of a namespace named "sbx-<pid>-<n>"; pid 0 when
// the name is not of that shape.
struct NameParts {
    long pid = 0;
    std::string host_link;
};
NameParts parts_of(const std::string &netns);

// /run/netns/<name>: what the executor's spec field `netns` receives.
std::string namespace_path(const std::string &name);

bool namespace_exists(const std::string &name);
bool link_exists(const std::string &name);
// `ip netns del` / `ip link del`; throw sbx::Error when the tool fails.
void delete_namespace(const std::string &name);
void delete_link(const std::string &name);

// Owns a namespace: made (with loopback up) by the constructor, deleted by the destructor.
class NamedNamespace {
  public:
    explicit NamedNamespace(std::string name);
    ~NamedNamespace();
    NamedNamespace(const NamedNamespace &) = delete;
    NamedNamespace &operator=(const NamedNamespace &) = delete;

    [[nodiscard]] const std::string &name() const { return name_; }
    [[nodiscard]] std::string path() const { return namespace_path(name_); }

  private:
    std::string name_;
};

}  // namespace sbx::network
