// Random preset generation. The algorithm below is a compatibility contract: a seed
// recorded today must give the same presets in every later version, so any change here
// must show up as a change to tests/presets/golden/ (and a note in the changelog).
//
// One SplitMix64 stream (sbx/random.hpp) starts at the seed; `draw(n)` is its unbiased
// below(n), `pick(pool)` is pool[draw(pool size)]. Presets are made one after another
// from that single stream, so the first k presets of `--count n` are those of `--count k`.
// For preset i:
//   1. pick, in this order: CPU_LIMIT, MEMORY_LIMIT, DISK_LIMIT, NETWORK_LATENCY_MS,
//      NETWORK_JITTER_MS, API_LATENCY_MS (pools as in docs/semantics.md, "Random presets").
//   2. Bandwidth: a = draw(5), b = draw(5) over {1,5,10,50,100}mbps; MIN_BANDWIDTH is the
//      smaller, MAX_BANDWIDTH the larger, BANDWIDTH_LIMIT = pool[lo + draw(hi - lo + 1)],
//      so MIN <= LIMIT <= MAX.
//   3. pick PACKET_LOSS, PACKET_DUPLICATION, SECURITY_LEVEL (1..5), THREAT_INTENSITY,
//      CONCURRENCY_LEVEL.
//   4. Severity: the option's, else low when draw(2) == 0, high otherwise.
//   5a. With profiles: profile p = profiles[i mod n] (aliases resolved; "a+b" a
//      combination). Every key of p at that severity replaces the drawn value (a key two
//      parts set: the larger); FAILURE_MODES = p's modes, SCENARIO_NAME = p's names joined
//      with '+'. Nothing more is drawn.
//   5b. Without: combine = draw(5) == 0 (probability exactly 0.2); k = combine ? 2 +
//      draw(2) : 1 modes. Candidates = random_failure_modes() in order; k times: take
//      candidates[draw(size)] and remove it; a stub-driven mode (hostile_input,
//      schema_drift: one run feeds one stub strategy) also removes the other stub-driven
//      ones. FAILURE_MODES lists the chosen modes in candidate order, comma-separated.
//      A chosen mode that is a canonical profile (concurrency_spike, hostile_input,
//      schema_drift, flaky_upstream) adds that profile's keys at the severity, except the
//      keys drawn in steps 1-3 (THREAT_INTENSITY, CONCURRENCY_LEVEL stay random).
//      SCENARIO_NAME: high_latency_api when is_high_latency_api(), else the modes joined
//      with '+' ("memory", "cpu_spike+hostile_input").
#include "presets/generator.hpp"

#include <algorithm>
#include <set>

#include <sbx/random.hpp>
#include "util/errors.hpp"
#include "util/number_parse.hpp"
#include "util/units.hpp"

namespace sbx::presets {
namespace {

using nlohmann::json;

struct Pool {
    const char *key;
    std::vector<std::string> values;
};

// Steps 1 and 3 of the algorithm, in draw order, split around the bandwidth draws.
const std::vector<Pool> &pools_before_bandwidth() {
    static const std::vector<Pool> pools = {
        {"CPU_LIMIT", {"0.5", "1", "2", "4", "8"}},
        {"MEMORY_LIMIT", {"128Mi", "256Mi", "512Mi", "1024Mi", "2048Mi", "4096Mi"}},
        {"DISK_LIMIT", {"512Mi", "1Gi", "2Gi", "4Gi", "8Gi"}},
        {"NETWORK_LATENCY_MS", {"10", "50", "100", "200", "500"}},
        {"NETWORK_JITTER_MS", {"0", "5", "10", "20", "50"}},
        {"API_LATENCY_MS", {"50", "100", "200", "500", "1000"}},
    };
    return pools;
}

const std::vector<std::string> &bandwidth_pool() {
    static const std::vector<std::string> pool = {"1mbps", "5mbps", "10mbps", "50mbps", "100mbps"};
    return pool;
}

const std::vector<Pool> &pools_after_bandwidth() {
    static const std::vector<Pool> pools = {
        {"PACKET_LOSS", {"0", "0.01", "0.05", "0.1"}},
        {"PACKET_DUPLICATION", {"0", "0.01", "0.05"}},
        {"SECURITY_LEVEL", {"1", "2", "3", "4", "5"}},
        {"THREAT_INTENSITY", {"10", "30", "50", "70", "90"}},
        {"CONCURRENCY_LEVEL", {"1", "5", "10", "20", "50", "100"}},
    };
    return pools;
}

// Keys the pools set: a failure mode's profile keys never replace these (step 5b).
bool is_pool_key(const std::string &key) {
    if (key == "MIN_BANDWIDTH" || key == "MAX_BANDWIDTH" || key == "BANDWIDTH_LIMIT") {
        return true;
    }
    for (const auto *pools : {&pools_before_bandwidth(), &pools_after_bandwidth()}) {
        for (const auto &pool : *pools) {
            if (key == pool.key) {
                return true;
            }
        }
    }
    return false;
}

bool is_stub_driven(const std::string &mode) {
    return mode == "hostile_input" || mode == "schema_drift" || mode == "user_misuse";
}

const std::string &pick(SplitMix64 &rng, const std::vector<std::string> &pool) {
    return pool[rng.below(pool.size())];
}

// Steps 1-3.
json draw_pools(SplitMix64 &rng) {
    json preset = json::object();
    for (const auto &pool : pools_before_bandwidth()) {
        preset[pool.key] = pick(rng, pool.values);
    }
    const auto &bandwidths = bandwidth_pool();
    const uint64_t a = rng.below(bandwidths.size());
    const uint64_t b = rng.below(bandwidths.size());
    const uint64_t lo = std::min(a, b);
    const uint64_t hi = std::max(a, b);
    preset["MIN_BANDWIDTH"] = bandwidths[lo];
    preset["MAX_BANDWIDTH"] = bandwidths[hi];
    preset["BANDWIDTH_LIMIT"] = bandwidths[lo + rng.below(hi - lo + 1)];
    for (const auto &pool : pools_after_bandwidth()) {
        preset[pool.key] = pick(rng, pool.values);
    }
    return preset;
}

// Step 5b: k modes without two stub-driven ones, in candidate order.
std::vector<std::string> draw_failure_modes(SplitMix64 &rng) {
    const bool combine = rng.below(5) == 0;
    const uint64_t count = combine ? 2 + rng.below(2) : 1;
    std::vector<std::string> candidates = random_failure_modes();
    std::set<std::string> chosen;
    for (uint64_t i = 0; i < count; ++i) {
        const std::string mode = candidates[rng.below(candidates.size())];
        chosen.insert(mode);
        candidates.erase(std::remove_if(candidates.begin(), candidates.end(),
                                        [&](const std::string &candidate) {
                                            return candidate == mode || (is_stub_driven(mode) &&
                                                                         is_stub_driven(candidate));
                                        }),
                         candidates.end());
    }
    std::vector<std::string> ordered;
    for (const auto &mode : random_failure_modes()) {
        if (chosen.count(mode) != 0) {
            ordered.push_back(mode);
        }
    }
    return ordered;
}

std::string join_with_plus(const std::vector<std::string> &modes) {
    std::string name;
    for (const auto &mode : modes) {
        name += (name.empty() ? "" : "+") + mode;
    }
    return name;
}

json random_preset(SplitMix64 &rng, const std::vector<std::string> *profile,
                   std::optional<Severity> wanted_severity) {
    json preset = draw_pools(rng);
    Severity severity = Severity::low;
    if (wanted_severity) {
        severity = *wanted_severity;
    } else {
        severity = rng.below(2) == 0 ? Severity::low : Severity::high;
    }
    if (profile != nullptr) {
        for (const auto &[key, value] : combined_profile_values(*profile, severity)) {
            preset[key] = value;
        }
        const json named = combined_canonical_preset(*profile, severity);
        preset["FAILURE_MODES"] = named["FAILURE_MODES"];
        preset["SCENARIO_NAME"] = named["SCENARIO_NAME"];
        return preset;
    }
    const auto modes = draw_failure_modes(rng);
    for (const auto &mode : modes) {
        const auto &profiles = canonical_profile_names();
        if (std::find(profiles.begin(), profiles.end(), mode) == profiles.end()) {
            continue;
        }
        for (const auto &[key, value] : profile_values(mode, severity)) {
            if (!is_pool_key(key)) {
                preset[key] = value;
            }
        }
    }
    preset["FAILURE_MODES"] = failure_modes_text(modes);
    preset["SCENARIO_NAME"] =
        is_high_latency_api(preset) ? "high_latency_api" : join_with_plus(modes);
    return preset;
}

// A number from a preset value; 0 when absent or unreadable (the naming rule only reads
// values this file wrote, but it is public).
double number_of(const json &preset, const char *key) {
    const auto found = preset.find(key);
    if (found == preset.end()) {
        return 0;
    }
    if (found->is_number()) {
        return found->get<double>();
    }
    if (!found->is_string()) {
        return 0;
    }
    const std::string text = found->get<std::string>();
    if (std::string(key) == "PACKET_LOSS") {
        try {
            return parse_fraction(text);
        } catch (const std::invalid_argument &) {
            return 0;
        }
    }
    return util::parse_double(text, util::LeadingPlus::refused).value_or(0);
}

// Each name's profiles ("a+b": a combination) in the order given; with `once`, a name
// repeated is kept the first time. Random mode keeps repeats: [a, a, b] asks for two
// presets on a for each on b.
std::vector<std::vector<std::string>> resolved_profiles(const std::vector<std::string> &names,
                                                        bool once) {
    std::vector<std::vector<std::string>> resolved;
    for (const auto &name : names) {
        auto parts = resolve_profile_combination(name);
        if (!once || std::find(resolved.begin(), resolved.end(), parts) == resolved.end()) {
            resolved.push_back(std::move(parts));
        }
    }
    return resolved;
}

}  // namespace

const std::vector<std::string> &random_failure_modes() {
    static const std::vector<std::string> modes = {"cpu",
                                                   "cpu_spike",
                                                   "memory",
                                                   "disk",
                                                   "disk_corruption",
                                                   "timeout",
                                                   "network",
                                                   "network_partition",
                                                   "api_latency",
                                                   "concurrency_spike",
                                                   "hostile_input",
                                                   "schema_drift",
                                                   "flaky_upstream"};
    return modes;
}

bool is_high_latency_api(const nlohmann::json &preset) {
    const double latency = number_of(preset, "NETWORK_LATENCY_MS");
    const double jitter = number_of(preset, "NETWORK_JITTER_MS");
    const double loss = number_of(preset, "PACKET_LOSS");
    const double api_latency = number_of(preset, "API_LATENCY_MS");
    return (latency >= 200 && (jitter >= 20 || loss >= 0.05)) || api_latency >= 500;
}

std::vector<nlohmann::json> generate_presets(const GenerateOptions &options) {
    const std::vector<std::vector<std::string>> profiles =
        resolved_profiles(options.profiles, options.canonical);
    std::vector<json> presets;
    if (options.canonical) {
        if (profiles.empty()) {
            return generate_canonical_presets(options.severity);
        }
        for (const auto &profile : profiles) {
            for (const Severity severity : {Severity::low, Severity::high}) {
                if (!options.severity || *options.severity == severity) {
                    presets.push_back(combined_canonical_preset(profile, severity));
                }
            }
        }
        return presets;
    }
    if (options.count < 0) {
        throw InputError("a preset count of " + std::to_string(options.count) +
                         " is negative; ask for 1 or more presets");
    }
    SplitMix64 rng(options.seed);
    for (int i = 0; i < options.count; ++i) {
        const std::vector<std::string> *profile =
            profiles.empty() ? nullptr : &profiles[static_cast<size_t>(i) % profiles.size()];
        presets.push_back(random_preset(rng, profile, options.severity));
    }
    return presets;
}

}  // namespace sbx::presets
