// A command-line tool with one planted misuse bug, chosen by its first argument, for
// tools/bench/misuse-efficacy and the arity tests: `misuse_target BUG COUNT MODE PATH SRC DST`
// copies SRC to DST COUNT times (1-10) in MODE (fast or slow) under PATH (relative, inside
// the workspace). Every misuse it checks for is refused cleanly (exit 2); the one check the
// planted BUG names is missing, and the misuse that reaches it crashes the tool (SIGSEGV).
//   fewer_args        fewer than 5 arguments after BUG: reads a missing argv item
//   more_args         more than 5: copies them into a fixed array of 5
//   option_injection  an argument starting with "--": parses it as an option it lacks
//   wrong_type        COUNT that is not a whole number: uses its text as an index
//   out_of_range      COUNT outside 1-10: indexes a table of 10
//   enum_violation    MODE other than fast or slow: calls a null handler
//   path_escape       PATH absolute, from the home directory, or with "..": opens it
// Valid use prints "copied" and exits 0.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace {

constexpr int kArguments = 5;  // COUNT MODE PATH SRC DST

[[noreturn]] void crash(const char *why) {
    std::fprintf(stderr, "misuse_target: planted bug: %s\n", why);
    std::fflush(stderr);
    // A write through a pointer the compiler cannot prove null: a real SIGSEGV.
    volatile std::uintptr_t address = 0;
    // NOLINTNEXTLINE(performance-no-int-to-ptr,clang-analyzer-core.NullDereference)
    *reinterpret_cast<volatile int *>(address) = 1;
    __builtin_unreachable();
}

int refuse(const char *why) {
    std::fprintf(stderr, "misuse_target: %s\n", why);
    return 2;
}

bool is_whole_number(const std::string &text) {
    const size_t digits = !text.empty() && text[0] == '-' ? 1 : 0;
    return text.size() > digits &&
           text.find_first_not_of("0123456789", digits) == std::string::npos && text.size() < 10;
}

bool escapes(const std::string &path) {
    return !path.empty() &&
           (path[0] == '/' || path[0] == '~' || path.find("..") != std::string::npos);
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 2) {
        return refuse("usage: misuse_target BUG COUNT MODE PATH SRC DST");
    }
    const std::string bug = argv[1];
    const auto planted = [&](const char *name) { return bug == name; };
    for (int i = 2; i < argc; ++i) {
        if (std::strncmp(argv[i], "--", 2) == 0) {
            if (planted("option_injection")) {
                crash("an argument parsed as an option");
            }
            return refuse("an argument starts with --; no options are known");
        }
    }
    const int given = argc - 2;
    if (given < kArguments) {
        if (planted("fewer_args")) {
            crash("read a missing argument");
        }
        return refuse("too few arguments: COUNT MODE PATH SRC DST");
    }
    if (given > kArguments) {
        if (planted("more_args")) {
            crash("more arguments than the array holds");
        }
        return refuse("too many arguments: COUNT MODE PATH SRC DST");
    }
    const std::string count = argv[2];
    const std::string mode = argv[3];
    const std::string path = argv[4];
    if (!is_whole_number(count)) {
        if (planted("wrong_type")) {
            crash("COUNT is not a number");
        }
        return refuse("COUNT must be a whole number");
    }
    const long times = std::stol(count);
    if (times < 1 || times > 10) {
        if (planted("out_of_range")) {
            crash("COUNT outside the table");
        }
        return refuse("COUNT must be 1-10");
    }
    if (mode != "fast" && mode != "slow") {
        if (planted("enum_violation")) {
            crash("no handler for MODE");
        }
        return refuse("MODE must be fast or slow");
    }
    if (path.empty()) {
        return refuse("PATH is empty");
    }
    if (escapes(path)) {
        if (planted("path_escape")) {
            crash("opened a path outside the workspace");
        }
        return refuse("PATH must be relative and inside the workspace");
    }
    std::printf("copied %s to %s/%s %ld times (%s)\n", argv[5], path.c_str(), argv[6], times,
                mode.c_str());
    return 0;
}
