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
 * with its name, which the executor turns into XX.
 *
 * sbx-docker-run-init --command-file FILE: the command is in FILE instead, as NUL-terminated
 * items: NAME=VALUE variables to set, an empty item, then PROG and its arguments. The
 * executor uses it for argv items and variables that are not valid UTF-8, which the
 * engine's JSON API would change (command_file.hpp).
 *
 * sbx-docker-run-init --serve SOCKET: a warm container's agent (agent_serve.c). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run_init.h"

static const char kName[] = SBX_RUN_INIT_NAME;
static volatile pid_t target_pid = 0;

/* As PID 1 (a container of its own) a termination signal from the engine would be dropped
 * for want of a handler; pass it on to the target, which decides. */
static void forward(int signal_number) {
    if (target_pid > 0) {
        kill(target_pid, signal_number);
    }
}

void reset_signals(void) {
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
int kill_the_rest(void) {
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

void empty_scratch(const char *path) {
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

/* The whole of `path`, NUL-terminated, in memory that lives until exec; NULL on failure. */
static char *read_whole(const char *path, size_t *size) {
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return NULL;
    }
    struct stat info;
    char *text = NULL;
    if (fstat(fd, &info) == 0 && (text = malloc((size_t)info.st_size + 1)) != NULL) {
        size_t done = 0;
        ssize_t got = 1;
        while (done < (size_t)info.st_size && got > 0) {
            got = read(fd, text + done, (size_t)info.st_size - done);
            done += got > 0 ? (size_t)got : 0;
        }
        text[done] = '\0';
        *size = done;
    }
    close(fd);
    return text;
}

/* The command of a --command-file: sets its variables (in this process: the child inherits
 * them) and returns its argv, NULL-terminated; NULL when the file is unreadable or names no
 * program. */
static char **read_command_file(const char *path) {
    size_t size = 0;
    char *text = read_whole(path, &size);
    if (text == NULL) {
        return NULL;
    }
    size_t at = 0;
    while (at < size && text[at] != '\0') { /* variables, up to the empty item */
        if (putenv(text + at) != 0) {
            return NULL;
        }
        at += strlen(text + at) + 1;
    }
    at += 1;
    size_t count = 0;
    for (size_t i = at; i < size; i += strlen(text + i) + 1) {
        ++count;
    }
    if (count == 0) {
        errno = EINVAL;
        return NULL;
    }
    char **items = calloc(count + 1, sizeof *items);
    if (items == NULL) {
        return NULL;
    }
    for (size_t i = at, n = 0; i < size; i += strlen(text + i) + 1) {
        items[n++] = text + i;
    }
    return items;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--serve") == 0) {
        return serve(argv[2]);
    }
    if (argc < 2) {
        fprintf(stderr, "usage: %s PROG [ARG...] | --command-file FILE | --serve SOCKET\n", kName);
        return kHelperFailed;
    }
    char **command = argv + 1;
    if (strcmp(argv[1], "--command-file") == 0) {
        command = argc == 3 ? read_command_file(argv[2]) : NULL;
        if (command == NULL) {
            fprintf(stderr, "%s: cannot read a command from %s: %s\n", kName,
                    argc == 3 ? argv[2] : "(no file named)", strerror(errno));
            return kHelperFailed;
        }
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
        execvp(command[0], command);
        /* As a shell says it: 127 not found, 126 not runnable. */
        fprintf(stderr, "%s: %s\n", command[0], strerror(errno));
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
