// The child is a vfork child (CLONE_VM|CLONE_VFORK): raw system calls only, we are suspended
// until it exits. CLONE_FILES puts the mount fd it opens in our table; its namespaces go
// with it, the detached mount stays (a mount holds its superblock, not its namespace).
#include "rootless_tmpfs.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/wait.h>

#include <cerrno>

#include "support/block_all_signals.hpp"
#include "support/child_stack.hpp"
#include "support/sys_error.hpp"
#include "support/user_namespace.hpp"

namespace sbx::local {
namespace {

struct TmpfsRequest {
    const char *size = nullptr;
    const support::IdMapText *maps = nullptr;
    int mount_fd = -1;
    int failed_errno = 0;
    const char *failed_step = "";
};

int fail(TmpfsRequest *request, const char *step) {
    request->failed_errno = errno;
    request->failed_step = step;
    return 1;
}

int make_tmpfs(void *argument) {
    auto *request = static_cast<TmpfsRequest *>(argument);
    if (!support::write_id_maps(*request->maps)) {
        return fail(request, "map the user namespace");
    }
    const int context = ::fsopen("tmpfs", FSOPEN_CLOEXEC);
    if (context < 0) {
        return fail(request, "fsopen tmpfs");
    }
    if (::fsconfig(context, FSCONFIG_SET_STRING, "size", request->size, 0) != 0 ||
        ::fsconfig(context, FSCONFIG_SET_STRING, "mode", "0700", 0) != 0 ||
        ::fsconfig(context, FSCONFIG_CMD_CREATE, nullptr, nullptr, 0) != 0) {
        ::close(context);
        return fail(request, "create the tmpfs");
    }
    request->mount_fd = ::fsmount(context, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
    if (request->mount_fd < 0) {
        fail(request, "fsmount tmpfs");
    }
    ::close(context);
    return request->mount_fd < 0 ? 1 : 0;
}

}  // namespace

UniqueFd make_tmpfs_in_user_namespace(const std::string &size_bytes, std::string &why) {
    TmpfsRequest request;
    request.size = size_bytes.c_str();
    request.maps = &support::caller_id_maps();
    const support::ChildStack stack;
    pid_t child;
    {
        const support::BlockAllSignals blocked;
        child = ::clone(
            make_tmpfs, stack.top(),
            CLONE_VM | CLONE_VFORK | CLONE_FILES | CLONE_NEWUSER | CLONE_NEWNS | SIGCHLD, &request);
    }
    if (child < 0) {
        why = "clone a user namespace for it: " + support::errno_text(errno);
        return UniqueFd();
    }
    int status = 0;
    while (::waitpid(child, &status, __WALL) < 0 && errno == EINTR) {
    }
    UniqueFd mount(request.mount_fd);
    if (!mount.valid()) {
        why = std::string(request.failed_step) +
              " in a user namespace: " + support::errno_text(request.failed_errno);
    }
    return mount;
}

}  // namespace sbx::local
