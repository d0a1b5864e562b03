// The seed of one run's random choices, and a small generator for them (splitmix64): the
// same configured seed and the same run give the same draws, on any machine.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace sbx::injectors {

inline std::uint64_t splitmix64(std::uint64_t &state) {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// A draw uniform in [0, 1).
inline double unit_draw(std::uint64_t &state) {
    return static_cast<double>(splitmix64(state) >> 11) * 0x1.0p-53;
}

// What identifies a run among a command's runs: the spec's own integer `seed` when it
// carries one; else its run_id without the host pid ("<pid>-<n>[-c<copy>]" -> "<n>[-c<copy>]"),
// so the n-th spec of a rerun of the same command (one worker) draws the same as before.
inline std::string run_identity(const nlohmann::json &spec) {
    const auto seed = spec.find("seed");
    if (seed != spec.end() && seed->is_number_integer()) {
        return "seed:" + seed->dump();
    }
    const std::string run_id = spec.value("run_id", std::string());
    const auto dash = run_id.find('-');
    const bool pid_prefix =
        dash != std::string::npos && dash > 0 && run_id.find_first_not_of("0123456789") == dash;
    return pid_prefix ? run_id.substr(dash + 1) : run_id;
}

// The configured seed mixed with the run's identity (FNV-1a, then splitmix64).
inline std::uint64_t run_seed(const nlohmann::json &spec, std::uint64_t configured_seed) {
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (const char c : run_identity(spec)) {
        hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    }
    std::uint64_t state = hash ^ configured_seed;
    return splitmix64(state);
}

}  // namespace sbx::injectors
