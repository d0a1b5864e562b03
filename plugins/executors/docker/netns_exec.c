/* sbx-docker-netns-exec NETNS PROG [ARG...]: the first process of a docker container whose
 * run spec names a network namespace (the network injector's). It enters NETNS, gives up
 * CAP_SYS_ADMIN for good (bounding set, effective, permitted, inheritable) and execs PROG.
 *
 * Rationale: the engine cannot create a container in a namespace given by path, and a
 * process cannot be moved into one from outside. So the container gets CAP_SYS_ADMIN (and
 * the namespace file, bind-mounted) only for this helper's setns(); the target never holds
 * the capability, which on cgroup v1 would let it escape the container. Statically linked,
 * so it runs in any image. Its own failures exit 125 with a line starting with its name,
 * which the executor turns into XX. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { kHelperFailed = 125 };

static int fail(const char *what, const char *subject) {
    fprintf(stderr, "sbx-docker-netns-exec: %s %s: %s\n", what, subject, strerror(errno));
    return kHelperFailed;
}

static int drop_sys_admin(void) {
    if (prctl(PR_CAPBSET_DROP, CAP_SYS_ADMIN, 0, 0, 0) != 0) {
        return -1;
    }
    struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
    memset(data, 0, sizeof data);
    if (syscall(SYS_capget, &header, data) != 0) {
        return -1;
    }
    const unsigned index = CAP_TO_INDEX(CAP_SYS_ADMIN);
    const unsigned mask = CAP_TO_MASK(CAP_SYS_ADMIN);
    data[index].effective &= ~mask;
    data[index].permitted &= ~mask;
    data[index].inheritable &= ~mask;
    return (int)syscall(SYS_capset, &header, data);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: sbx-docker-netns-exec NETNS PROG [ARG...]\n");
        return kHelperFailed;
    }
    const int fd = open(argv[1], O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return fail("cannot open network namespace", argv[1]);
    }
    if (setns(fd, CLONE_NEWNET) != 0) {
        return fail("cannot enter network namespace (the container user must be root)", argv[1]);
    }
    close(fd);
    if (drop_sys_admin() != 0) {
        return fail("cannot drop", "CAP_SYS_ADMIN");
    }
    execvp(argv[2], argv + 2);
    /* As a shell says it: 127 not found, 126 not runnable. */
    fprintf(stderr, "%s: %s\n", argv[2], strerror(errno));
    return errno == ENOENT ? 127 : 126;
}
