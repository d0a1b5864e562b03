// A tmpfs made without root: inside a throwaway user and mount namespace of a short-lived
// child that shares our descriptor table, so the detached mount it makes is ours to fill and
// to hand to the run's init, which attaches it over the workspace.
#pragma once

#include <string>

#include <sbx/unique_fd.hpp>

namespace sbx::local {

// fsopen/fsconfig/fsmount of a tmpfs of `size_bytes` (as text) and mode 0700 where the
// caller's uid and gid are mapped, so files the host and the target write in it keep their
// owner. An invalid fd, with `why` set, when user namespaces are refused too.
UniqueFd make_tmpfs_in_user_namespace(const std::string &size_bytes, std::string &why);

}  // namespace sbx::local
