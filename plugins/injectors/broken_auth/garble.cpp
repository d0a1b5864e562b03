// Garbling credentials and matching variable names.
#include "garble.hpp"

#include <fnmatch.h>

#include "support/run_seed.hpp"

namespace sbx::broken_auth {
namespace {

// Another character of the same class as `c`, or `c` when it is in none.
char other_of_kind(char c, sbx::SplitMix64 &random) {
    struct Kind {
        char first;
        int size;
    };
    for (const Kind kind : {Kind{'a', 26}, Kind{'A', 26}, Kind{'0', 10}}) {
        const int index = c - kind.first;
        if (index >= 0 && index < kind.size) {
            const auto step =
                static_cast<int>(random.next() % static_cast<std::uint64_t>(kind.size - 1));
            return static_cast<char>(kind.first + (index + 1 + step) % kind.size);
        }
    }
    return c;
}

}  // namespace

std::string garble(const std::string &value, sbx::SplitMix64 &random) {
    std::string wrong = value;
    for (char &c : wrong) {
        c = other_of_kind(c, random);
    }
    return wrong;
}

bool matches_any(const std::string &name, const std::vector<std::string> &patterns) {
    for (const auto &pattern : patterns) {
        if (::fnmatch(pattern.c_str(), name.c_str(), FNM_CASEFOLD) == 0) {
            return true;
        }
    }
    return false;
}

}  // namespace sbx::broken_auth
