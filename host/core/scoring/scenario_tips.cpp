// Hardening tips by scenario. The table is in docs/semantics.md; the first four were given, the
// others were chosen for the condition each scenario injects:
//   user_misuse      wrong types, missing or extra arguments -> validate arguments
//   high_latency     slow network and upstream APIs         -> timeouts and caching
//   resource_strain  half a CPU, a small disk                -> bound resource use
//   chaotic_failure  broken credentials, corrupted payloads  -> check auth and payloads
//   normal           nothing injected: the target fails by itself
// Aliases of the canonical profiles (malicious_data, schema_mismatch, upstream_failure,
// high_latency_api) get the tip of the scenario they stand for.
#include "scoring/scenario_tips.hpp"

#include <map>

namespace sbx::scoring {

std::string hardening_tip(const std::string &scenario) {
    static const std::map<std::string, std::string> tips = {
        {"concurrency_spike", "add locking or queueing"},
        {"schema_drift", "tighten schema validation"},
        {"schema_mismatch", "tighten schema validation"},
        {"hostile_input", "sanitize inputs"},
        {"malicious_data", "sanitize inputs"},
        {"flaky_upstream", "add retries or fallback logic"},
        {"upstream_failure", "add retries or fallback logic"},
        {"user_misuse", "validate arguments and reject misuse with a clear error"},
        {"high_latency", "add timeouts and cache slow calls"},
        {"high_latency_api", "add timeouts and cache slow calls"},
        {"resource_strain", "bound memory, CPU and disk use and degrade gracefully"},
        {"chaotic_failure", "check credentials and payloads and recover from bad ones"},
        {"normal", "fix the failures that happen without any injected fault first"},
    };
    auto found = tips.find(scenario);
    if (found != tips.end()) {
        return found->second;
    }
    return "inspect the failing runs and handle the condition this scenario injects";
}

}  // namespace sbx::scoring
