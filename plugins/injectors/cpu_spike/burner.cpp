// Burner processes for the cpu_spike failure mode.
#include "burner.hpp"

namespace cpu_spike {
namespace {

// Record files are "burner-<pid>", as before the helpers were shared.
constexpr const char *kPrefix = "burner";

[[noreturn]] void spin() {
    volatile unsigned long long counter = 0;
    for (;;) {
        counter = counter + 1;
    }
}

}  // namespace

Burner start_burner(const std::filesystem::path &state_dir) {
    return sbx::support::start_helper(state_dir, kPrefix, spin);
}

void stop_burner(const Burner &burner) {
    sbx::support::stop_helper(burner);
}

std::vector<std::string> sweep_burners(const std::filesystem::path &state_dir, bool dry_run) {
    return sbx::support::sweep_helpers(state_dir, kPrefix, dry_run);
}

}  // namespace cpu_spike
