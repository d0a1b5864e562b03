// clone3 has no libc wrapper here (glibc 2.36), and a child that shares our memory and
// starts on a stack of its own must not return into the caller's frames: the entry code
// below makes the call and, in the child, calls fn(arg) and exits, as libc's clone does.
#include "clone_into_cgroup.hpp"

#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>

#include <cerrno>
#include <cstdint>

#include "raw_syscall.hpp"

namespace sbx::local {
namespace {

// struct clone_args of <linux/sched.h> up to `cgroup` (its version 2, 88 bytes), spelled
// here: that header's CLONE_* macros clash with <sched.h>'s.
struct CloneArgs {
    std::uint64_t flags = 0;
    std::uint64_t pidfd = 0;
    std::uint64_t child_tid = 0;
    std::uint64_t parent_tid = 0;
    std::uint64_t exit_signal = 0;
    std::uint64_t stack = 0;
    std::uint64_t stack_size = 0;
    std::uint64_t tls = 0;
    std::uint64_t set_tid = 0;
    std::uint64_t set_tid_size = 0;
    std::uint64_t cgroup = 0;
};
constexpr std::uint64_t kCloneIntoCgroup = 0x200000000ULL;

}  // namespace

SBX_BESIDE_THE_HOST long clone_vfork_into_cgroup(int (*fn)(void *), void *arg,
                                                 const support::ChildStack &stack,
                                                 int cgroup_folder, int *pidfd) {
    CloneArgs args;
    args.flags = CLONE_VM | CLONE_VFORK | CLONE_PIDFD | kCloneIntoCgroup;
    args.pidfd = reinterpret_cast<std::uintptr_t>(pidfd);
    args.exit_signal = SIGCHLD;
    args.stack = reinterpret_cast<std::uintptr_t>(stack.top()) - support::ChildStack::kSize;
    args.stack_size = support::ChildStack::kSize;
    args.cgroup = static_cast<std::uint64_t>(cgroup_folder);
#if defined(__x86_64__)
    long result = SYS_clone3;
    // Kept in registers the kernel preserves, for the child to find on its new stack.
    register long child_fn __asm__("r12") = reinterpret_cast<long>(fn);
    register long child_arg __asm__("r13") = reinterpret_cast<long>(arg);
    __asm__ volatile(
        "syscall\n\t"
        "testq %%rax, %%rax\n\t"
        "jnz 1f\n\t"
        // The child: the stack's top is 16-byte aligned, as a call expects.
        "xorl %%ebp, %%ebp\n\t"
        "movq %%r13, %%rdi\n\t"
        "callq *%%r12\n\t"
        "movl %%eax, %%edi\n\t"
        "movl %[exit], %%eax\n\t"
        "syscall\n\t"
        "hlt\n\t"
        "1:\n\t"
        : "+a"(result)
        : "D"(&args), "S"(sizeof args), "r"(child_fn), "r"(child_arg), [exit] "i"(SYS_exit)
        : "rcx", "r11", "memory");
    return result;
#else
    (void)fn;
    (void)arg;
    (void)args;
    return -ENOSYS;  // no entry code for this architecture: the caller clones the old way
#endif
}

}  // namespace sbx::local
