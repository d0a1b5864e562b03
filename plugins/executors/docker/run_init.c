/* sbx-docker-run-init PROG [ARG...]: what a docker container runs instead of the target
 * itself, in a container of its own (as its PID 1) and in every exec of a pooled container.
 *
 *  - The target is its child, never PID 1: the kernel drops signals a PID 1 sends itself
 *    without a handler, so raise(SIGSEGV) or abort() would otherwise end as nothing.
 *    It starts with default signal dispositions and an empty mask, as a shell starts it.
 *  - Its status is the target's: the exit code, or 128 + N for a signal (what the engine
 *    reports for a process killed by N).
 *  - Nothing the run started outlives it: this process is a child subreaper, so every
 *    orphan of the run (a setsid'd, double-forked daemon) is its child; once the target
 *    ends, kill(-1, SIGKILL) reaches every process of the container this user may signal
 *    except PID 1 (the pool's keep-alive) and itself, and the orphans are reaped.
 *  - The container's scratch folders (/tmp, /dev/shm) are emptied, without crossing into
 *    mounts (the workspace may be bind-mounted under /tmp).
 * A pooled container therefore starts every run as the first (its root is read-only).
 * Statically linked: it runs in any image. Its own failures exit 125 with a line starting
 * with its name, which the executor turns into XX. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { kHelperFailed = 125 };

static const char kName[] = "sbx-docker-run-init";
static volatile pid_t target_pid = 0;

/* As PID 1 (a container of its own) a termination signal from the engine would be dropped
 * for want of a handler; pass it on to the target, which decides. */
static void forward(int signal_number) {
    if (target_pid > 0) {
        kill(target_pid, signal_number);
    }
}

static void reset_signals(void) {
    for (int signal_number = 1; signal_number < NSIG; ++signal_number) {
        if (signal_number != SIGKILL && signal_number != SIGSTOP) {
            signal(signal_number, SIG_DFL);
        }
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
}

static void pause_ms(long milliseconds) {
    const struct timespec delay = {0, milliseconds * 1000000L};
    nanosleep(&delay, NULL);
}

/* Every process of the run is gone and reaped: true; one this user cannot kill (a set-uid
 * program's) still runs after 5 s: false. */
static int kill_the_rest(void) {
    for (int round = 0; round < 5000; ++round) {
        kill(-1, SIGKILL);
        pid_t reaped;
        while ((reaped = waitpid(-1, NULL, WNOHANG)) > 0) {
        }
        if (reaped < 0 && errno == ECHILD) {
            return 1;
        }
        pause_ms(1);
    }
    return 0;
}

/* Removes what folder `dir` (an open descriptor) holds, staying on device `device`. */
static void empty_folder(int dir, dev_t device) {
    DIR *listing = fdopendir(dir);
    if (listing == NULL) {
        close(dir);
        return;
    }
    struct dirent *entry;
    while ((entry = readdir(listing)) != NULL) {
        const char *name = entry->d_name;
        if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
            continue;
        }
        struct stat info;
        if (fstatat(dirfd(listing), name, &info, AT_SYMLINK_NOFOLLOW) != 0 ||
            info.st_dev != device) {
            continue; /* a mount point (the workspace): not the run's to remove */
        }
        if (S_ISDIR(info.st_mode)) {
            const int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
            int child = openat(dirfd(listing), name, flags);
            if (child < 0 && errno == EACCES) {
                /* A folder the run made unreadable is still its own to empty. */
                fchmodat(dirfd(listing), name, 0700, 0);
                child = openat(dirfd(listing), name, flags);
            }
            if (child >= 0) {
                empty_folder(child, device);
            }
            unlinkat(dirfd(listing), name, AT_REMOVEDIR); /* fails if it holds a mount */
        } else {
            unlinkat(dirfd(listing), name, 0);
        }
    }
    closedir(listing);
}

static void empty_scratch(const char *path) {
    const int dir = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    struct stat info;
    if (dir < 0) {
        return;
    }
    if (fstat(dir, &info) != 0) {
        close(dir);
        return;
    }
    empty_folder(dir, info.st_dev);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s PROG [ARG...]\n", kName);
        return kHelperFailed;
    }
    if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) {
        fprintf(stderr, "%s: cannot become a subreaper: %s\n", kName, strerror(errno));
        return kHelperFailed;
    }
    const int terminations[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};
    for (size_t i = 0; i < sizeof terminations / sizeof terminations[0]; ++i) {
        signal(terminations[i], forward);
    }
    const pid_t child = fork();
    if (child < 0) {
        fprintf(stderr, "%s: fork: %s\n", kName, strerror(errno));
        return kHelperFailed;
    }
    if (child == 0) {
        reset_signals();
        execvp(argv[1], argv + 1);
        /* As a shell says it: 127 not found, 126 not runnable. */
        fprintf(stderr, "%s: %s\n", argv[1], strerror(errno));
        _exit(errno == ENOENT ? 127 : 126);
    }
    target_pid = child;
    int status = 0;
    for (;;) {
        const pid_t reaped = waitpid(-1, &status, 0);
        if (reaped == child) {
            break;
        }
        if (reaped < 0 && errno != EINTR) {
            fprintf(stderr, "%s: wait: %s\n", kName, strerror(errno));
            return kHelperFailed;
        }
    }
    target_pid = 0;
    const int code = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
    if (getpid() == 1) {
        return code; /* the container ends with us, and every process in it */
    }
    if (!kill_the_rest()) {
        fprintf(stderr, "%s: a process the run started could not be killed\n", kName);
        return kHelperFailed;
    }
    empty_scratch("/tmp");
    empty_scratch("/dev/shm");
    return code;
}
