// System calls that leave errno alone. The run's init shares the host's memory, thread
// pointer included, so libc's wrappers would write the host thread's errno from under it
// while the two run side by side. Everything the init calls after the host has resumed goes
// through here; the value is the kernel's (-errno on failure).
#pragma once

#include <sys/syscall.h>

// On the functions the init and the warm sandbox's zygote run beside the host: TSan's
// instrumentation keeps per-thread state behind the thread pointer, which a CLONE_VM child
// shares with the host thread that made it, so instrumented code there would corrupt it.
#define SBX_BESIDE_THE_HOST __attribute__((no_sanitize("thread")))

namespace sbx::local {

inline long raw_syscall(long number, long a = 0, long b = 0, long c = 0, long d = 0) {
#if defined(__x86_64__)
    long result;
    register long r10 __asm__("r10") = d;
    __asm__ volatile("syscall"
                     : "=a"(result)
                     : "a"(number), "D"(a), "S"(b), "d"(c), "r"(r10)
                     : "rcx", "r11", "memory");
    return result;
#elif defined(__aarch64__)
    register long x8 __asm__("x8") = number;
    register long x0 __asm__("x0") = a;
    register long x1 __asm__("x1") = b;
    register long x2 __asm__("x2") = c;
    register long x3 __asm__("x3") = d;
    __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory");
    return x0;
#else
#error "raw_syscall: add this architecture's system call sequence"
#endif
}

}  // namespace sbx::local
