// LD_PRELOAD shim of the disk_corruption injector: write(2), pwrite(2), writev(2), fwrite(3)
// and fwrite_unlocked to regular files under the workspace reach the disk with some bytes
// flipped, find the disk full, or find it slow, as the environment asks;
// copy_file_range(2) and sendfile(2) into them fail as unsupported, so that programs fall
// back to write (cat and cp do) instead of copying in the kernel, out of the shim's sight.
//
// A full disk: once a process has written SANDBOX_DISK_FULL_AFTER bytes to workspace files,
// the write that would pass it is cut short there and the next fails with ENOSPC, as a real
// filesystem does. A slow disk: the first SANDBOX_DISK_SLOW_WRITES writes of each process
// to workspace files each take SANDBOX_DISK_WRITE_DELAY_MS longer (bounded, so a program
// that writes much is slowed, not timed out).
//
// Which bytes: the byte at file offset `o` is flipped when splitmix64(seed ^ mix(o)) falls
// below SANDBOX_CORRUPTION_RATE, XORed with a nonzero mask from the same draw. So the same
// seed corrupts the same offsets of a file however the program chunks its writes.
// Environment: SANDBOX_CORRUPTION_RATE (fraction, 0 = off), SANDBOX_CORRUPTION_SEED,
// SANDBOX_CORRUPTION_ROOT (the workspace; default and exported: the working directory at
// start), SANDBOX_CORRUPTION_REPORT (a file each process appends its counts to: every
// 64 KiB examined, at its first refused or delayed write, and at exit; a process ending in
// _exit or a signal loses the rest), SANDBOX_DISK_FULL_AFTER (bytes; unset: never full),
// SANDBOX_DISK_WRITE_DELAY_MS and SANDBOX_DISK_SLOW_WRITES (default 20).
// Not covered: static and setuid programs (the loader ignores LD_PRELOAD), mmap'ed writes,
// splice, stdio output other than fwrite (fputs, fprintf, putc).
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define SHIM_EXPORT __attribute__((visibility("default")))

typedef ssize_t (*write_fn)(int, const void *, size_t);
typedef ssize_t (*pwrite_fn)(int, const void *, size_t, off_t);
typedef ssize_t (*writev_fn)(int, const struct iovec *, int);
typedef size_t (*fwrite_fn)(const void *, size_t, size_t, FILE *);
typedef ssize_t (*copy_file_range_fn)(int, off_t *, int, off_t *, size_t, unsigned int);
typedef ssize_t (*sendfile_fn)(int, int, off_t *, size_t);

static write_fn real_write;
static pwrite_fn real_pwrite;
static pwrite_fn real_pwrite64;
static writev_fn real_writev;
static fwrite_fn real_fwrite;
static fwrite_fn real_fwrite_unlocked;
static copy_file_range_fn real_copy_file_range;
static sendfile_fn real_sendfile;

static double corruption_rate;
static uint64_t corruption_seed;
static char root[PATH_MAX];
static size_t root_length;
static const char *report_path;
// A full disk: bytes left before ENOSPC (-1: never full). A slow disk: the delay, and how
// many writes still get it.
static atomic_llong space_left = -1;
static long write_delay_ms;
static atomic_long slow_writes_left;
// Counted since the last report line.
static atomic_ullong bytes_examined;
static atomic_ullong bytes_flipped;
static atomic_ullong writes_refused;
static atomic_ullong writes_delayed;

// The next definition of `name` (libc's) into the function pointer at `slot`. memcpy,
// because ISO C has no cast from dlsym's object pointer to a function pointer.
static void next_symbol(const char *name, void *slot, size_t size) {
    void *symbol = dlsym(RTLD_NEXT, name);
    memcpy(slot, &symbol, size);
}

// Another library's constructor may write before ours ran: resolve on first use too.
static void resolve(void) {
    if (real_write == NULL) {
        next_symbol("pwrite", &real_pwrite, sizeof(real_pwrite));
        next_symbol("pwrite64", &real_pwrite64, sizeof(real_pwrite64));
        next_symbol("writev", &real_writev, sizeof(real_writev));
        next_symbol("fwrite", &real_fwrite, sizeof(real_fwrite));
        next_symbol("fwrite_unlocked", &real_fwrite_unlocked, sizeof(real_fwrite_unlocked));
        next_symbol("copy_file_range", &real_copy_file_range, sizeof(real_copy_file_range));
        next_symbol("sendfile", &real_sendfile, sizeof(real_sendfile));
        next_symbol("write", &real_write, sizeof(real_write));  // last: it marks "resolved"
    }
}

// Appends "pid P examined E flipped F" for what was counted since the last line, opening
// and closing the file each time: a descriptor kept open could be closed or reused by the
// program, and the report would land in one of its files. `always`: a line even when
// nothing was counted (at load), so the report names every process the shim reached.
static void report_counts(int always) {
    const unsigned long long examined = atomic_exchange(&bytes_examined, 0);
    const unsigned long long flipped = atomic_exchange(&bytes_flipped, 0);
    const unsigned long long refused = atomic_exchange(&writes_refused, 0);
    const unsigned long long delayed = atomic_exchange(&writes_delayed, 0);
    if (report_path == NULL || (examined == 0 && refused == 0 && delayed == 0 && !always)) {
        return;
    }
    const int saved_errno = errno;  // a refused write's ENOSPC is the caller's to see
    const int fd = open(report_path, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0) {
        errno = saved_errno;
        return;
    }
    char line[160];
    const int length = snprintf(line, sizeof(line),
                                "pid %ld examined %llu flipped %llu refused %llu delayed %llu\n",
                                (long)getpid(), examined, flipped, refused, delayed);
    if (length > 0) {
        (void)real_write(fd, line, (size_t)length);
    }
    close(fd);
    errno = saved_errno;
}

__attribute__((constructor)) static void corrupt_writes_init(void) {
    resolve();
    const char *rate = getenv("SANDBOX_CORRUPTION_RATE");
    const char *seed = getenv("SANDBOX_CORRUPTION_SEED");
    const char *where = getenv("SANDBOX_CORRUPTION_ROOT");
    report_path = getenv("SANDBOX_CORRUPTION_REPORT");
    corruption_rate = rate != NULL ? strtod(rate, NULL) : 0.0;
    if (!(corruption_rate > 0.0)) {
        corruption_rate = 0.0;  // also NaN
    } else if (corruption_rate > 1.0) {
        corruption_rate = 1.0;
    }
    corruption_seed = seed != NULL ? strtoull(seed, NULL, 10) : 0;
    const char *full_after = getenv("SANDBOX_DISK_FULL_AFTER");
    if (full_after != NULL && full_after[0] != '\0') {
        const long long bytes = strtoll(full_after, NULL, 10);
        atomic_store(&space_left, bytes >= 0 ? bytes : -1);
    }
    const char *delay = getenv("SANDBOX_DISK_WRITE_DELAY_MS");
    const char *slow_writes = getenv("SANDBOX_DISK_SLOW_WRITES");
    write_delay_ms = delay != NULL ? strtol(delay, NULL, 10) : 0;
    write_delay_ms = write_delay_ms > 0 ? write_delay_ms : 0;
    atomic_store(&slow_writes_left, slow_writes != NULL ? strtol(slow_writes, NULL, 10) : 20);
    if (where == NULL || where[0] == '\0') {
        // The first process of the run starts in the workspace; its children may not.
        if (getcwd(root, sizeof(root) - 1) == NULL) {
            return;  // no root: no file is a target
        }
        setenv("SANDBOX_CORRUPTION_ROOT", root, 1);
    } else if (realpath(where, root) == NULL) {
        return;
    }
    root_length = strlen(root);
    while (root_length > 1 && root[root_length - 1] == '/') {
        root[--root_length] = '\0';
    }
    report_counts(1);  // this process loaded the shim, whatever it writes or how it ends
}

__attribute__((destructor)) static void corrupt_writes_fini(void) {
    report_counts(0);
}

static void tally(unsigned long long examined, unsigned long long flipped) {
    atomic_fetch_add(&bytes_flipped, flipped);
    if (atomic_fetch_add(&bytes_examined, examined) + examined >= 65536) {
        report_counts(0);
    }
}

static uint64_t mix(uint64_t z) {
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// Flips the bytes of `data` (which sits at file offset `offset`) that the seed picks.
static void corrupt(unsigned char *data, size_t length, uint64_t offset) {
    for (size_t i = 0; i < length; ++i) {
        const uint64_t draw = mix(corruption_seed ^ mix(offset + i));
        if ((double)(draw >> 11) * 0x1.0p-53 < corruption_rate) {
            data[i] ^= (unsigned char)(1 + (draw & 0xff) % 255);
        }
    }
}

static int any_fault(void) {
    return corruption_rate > 0.0 || atomic_load(&space_left) >= 0 || write_delay_ms > 0;
}

// True when `fd` is a regular file under the root; `offset` is where a write lands.
static int is_target(int fd, off_t *offset, int positional) {
    if (fd < 0 || root_length == 0 || !any_fault()) {
        return 0;
    }
    struct stat info;
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        return 0;
    }
    char link[32];
    char path[PATH_MAX];
    snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
    const ssize_t length = readlink(link, path, sizeof(path) - 1);
    if (length <= (ssize_t)root_length || strncmp(path, root, root_length) != 0 ||
        path[root_length] != '/') {
        return 0;
    }
    if (positional) {
        return 1;
    }
    const int flags = fcntl(fd, F_GETFL);
    *offset = flags >= 0 && (flags & O_APPEND) != 0 ? info.st_size : lseek(fd, 0, SEEK_CUR);
    return *offset >= 0;
}

// A slow disk: this write waits first, while the process has slow writes left.
static void delay_if_slow(void) {
    if (write_delay_ms <= 0 || atomic_fetch_sub(&slow_writes_left, 1) <= 0) {
        return;
    }
    struct timespec wait = {write_delay_ms / 1000, (write_delay_ms % 1000) * 1000000L};
    while (nanosleep(&wait, &wait) != 0 && errno == EINTR) {
    }
    atomic_fetch_add(&writes_delayed, 1);
    report_counts(0);  // each at once (a few lines, beside the delay): dash ends in _exit
}

// A full disk: how many of `count` (> 0) bytes still fit; 0, with errno ENOSPC, when none.
static size_t space_for(size_t count) {
    long long left = atomic_load(&space_left);
    while (left >= 0) {
        const long long granted = (unsigned long long)left < count ? left : (long long)count;
        if (atomic_compare_exchange_weak(&space_left, &left, left - granted)) {
            if (granted == 0) {
                static atomic_flag reported = ATOMIC_FLAG_INIT;
                atomic_fetch_add(&writes_refused, 1);
                if (!atomic_flag_test_and_set(&reported)) {
                    report_counts(0);
                }
                errno = ENOSPC;
            }
            return (size_t)granted;
        }
    }
    return count;
}

// Writes `count` bytes of `data` as the faults asked: delayed, cut short at a full disk,
// corrupted. Returns what write/pwrite would.
static ssize_t write_faulted(int fd, const unsigned char *data, size_t count, off_t offset,
                             int positional);

// Writes a corrupted copy of `data`, 4 KiB at a time (short writes end the loop, as they
// would end the caller's). Returns what write/pwrite would.
static ssize_t write_corrupted(int fd, const unsigned char *data, size_t count, off_t offset,
                               int positional) {
    unsigned char chunk[4096];
    size_t done = 0;
    while (done < count) {
        const size_t length = count - done < sizeof(chunk) ? count - done : sizeof(chunk);
        memcpy(chunk, data + done, length);
        corrupt(chunk, length, (uint64_t)offset + done);
        const ssize_t written = positional ? real_pwrite(fd, chunk, length, offset + (off_t)done)
                                           : real_write(fd, chunk, length);
        if (written < 0) {
            return done > 0 ? (ssize_t)done : -1;  // errno is the failed call's
        }
        unsigned long long flipped = 0;
        for (ssize_t i = 0; i < written; ++i) {
            flipped += chunk[i] != data[done + (size_t)i];
        }
        tally((unsigned long long)written, flipped);
        done += (size_t)written;
        if ((size_t)written < length) {
            break;
        }
    }
    return (ssize_t)done;
}

static ssize_t write_faulted(int fd, const unsigned char *data, size_t count, off_t offset,
                             int positional) {
    delay_if_slow();
    const size_t fits = space_for(count);
    if (fits == 0) {
        return -1;  // ENOSPC
    }
    if (corruption_rate > 0.0) {
        return write_corrupted(fd, data, fits, offset, positional);
    }
    const ssize_t written =
        positional ? real_pwrite(fd, data, fits, offset) : real_write(fd, data, fits);
    if (written > 0) {
        tally((unsigned long long)written, 0);
    }
    return written;
}

SHIM_EXPORT ssize_t write(int fd, const void *data, size_t count) {
    resolve();
    off_t offset = 0;
    if (count == 0 || !is_target(fd, &offset, 0)) {
        return real_write(fd, data, count);
    }
    return write_faulted(fd, data, count, offset, 0);
}

SHIM_EXPORT ssize_t pwrite(int fd, const void *data, size_t count, off_t offset) {
    resolve();
    if (count == 0 || offset < 0 || !is_target(fd, &offset, 1)) {
        return real_pwrite(fd, data, count, offset);
    }
    return write_faulted(fd, data, count, offset, 1);
}

// Programs built with _FILE_OFFSET_BITS=64 call this name (the same function on 64-bit).
SHIM_EXPORT ssize_t pwrite64(int fd, const void *data, size_t count, off_t offset) {
    resolve();
    if (count == 0 || offset < 0 || !is_target(fd, &offset, 1)) {
        return real_pwrite64(fd, data, count, offset);
    }
    return write_faulted(fd, data, count, offset, 1);
}

// One write per buffer: the corruption is the same, only the call is no longer atomic.
SHIM_EXPORT ssize_t writev(int fd, const struct iovec *buffers, int count) {
    resolve();
    off_t offset = 0;
    if (count <= 0 || !is_target(fd, &offset, 0)) {
        return real_writev(fd, buffers, count);
    }
    ssize_t total = 0;
    for (int i = 0; i < count; ++i) {
        if (buffers[i].iov_len == 0) {
            continue;
        }
        const ssize_t written = write(fd, buffers[i].iov_base, buffers[i].iov_len);
        if (written < 0) {
            return total > 0 ? total : -1;
        }
        total += written;
        if ((size_t)written < buffers[i].iov_len) {
            break;
        }
    }
    return total;
}

// stdio's own flushes use glibc's internal write, which no shim sees: so fwrite's data is
// corrupted here, at its logical position in the file (ftello counts what is buffered).
static size_t fwrite_corrupted(fwrite_fn real, const void *data, size_t size, size_t items,
                               FILE *stream) {
    const size_t bytes = size * items;
    off_t offset = 0;
    if (bytes == 0 || bytes / items != size || !is_target(fileno(stream), &offset, 1) ||
        (offset = ftello(stream)) < 0) {
        return real(data, size, items, stream);
    }
    delay_if_slow();
    const size_t fits = space_for(bytes);
    if (fits == 0) {
        return 0;  // ENOSPC, as a stream whose flush failed
    }
    if (corruption_rate <= 0.0) {
        const size_t written = real(data, 1, fits, stream);
        tally((unsigned long long)written, 0);
        return written / size;
    }
    const unsigned char *from = data;
    unsigned char chunk[4096];
    size_t done = 0;
    while (done < fits) {
        const size_t length = fits - done < sizeof(chunk) ? fits - done : sizeof(chunk);
        memcpy(chunk, from + done, length);
        corrupt(chunk, length, (uint64_t)offset + done);
        const size_t written = real(chunk, 1, length, stream);
        unsigned long long flipped = 0;
        for (size_t i = 0; i < written; ++i) {
            flipped += chunk[i] != from[done + i];
        }
        tally((unsigned long long)written, flipped);
        done += written;
        if (written < length) {
            break;
        }
    }
    return done / size;
}

SHIM_EXPORT size_t fwrite(const void *data, size_t size, size_t items, FILE *stream) {
    resolve();
    return fwrite_corrupted(real_fwrite, data, size, items, stream);
}

// What coreutils (head, tail -c...) and other single-threaded stdio users call. glibc's
// headers may make the name a macro; the shim defines the function.
#undef fwrite_unlocked
SHIM_EXPORT size_t fwrite_unlocked(const void *data, size_t size, size_t items, FILE *stream) {
    resolve();
    return fwrite_corrupted(real_fwrite_unlocked, data, size, items, stream);
}

// In-kernel copies into a workspace file would pass the shim by: refused as callers expect
// from a filesystem that cannot do them, which sends them back to read and write.
SHIM_EXPORT ssize_t copy_file_range(int from, off_t *from_offset, int to, off_t *to_offset,
                                    size_t length, unsigned int flags) {
    resolve();
    off_t unused = 0;
    if (length > 0 && is_target(to, &unused, 1)) {
        errno = EXDEV;
        return -1;
    }
    return real_copy_file_range(from, from_offset, to, to_offset, length, flags);
}

SHIM_EXPORT ssize_t sendfile(int to, int from, off_t *offset, size_t count) {
    resolve();
    off_t unused = 0;
    if (count > 0 && is_target(to, &unused, 1)) {
        errno = EINVAL;
        return -1;
    }
    return real_sendfile(to, from, offset, count);
}
