// The seed of one run's random choices (draw them with sbx::SplitMix64): the same
// configured seed and the same run give the same draws, on any machine.
#pragma once

#include <sbx/random.hpp>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace sbx::support {

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
    return SplitMix64(fnv1a64(run_identity(spec)) ^ configured_seed).next();
}

}  // namespace sbx::support
