// Injector prepare/teardown pairing.
#include "engine/injection_scope.hpp"

#include <spdlog/spdlog.h>

namespace sbx::engine {

InjectionScope::InjectionScope(std::vector<std::unique_ptr<plugins::Instance>> &injectors,
                               const std::string &preset_text, nlohmann::json spec,
                               const std::string &state_dir, int64_t command_seed)
    : spec_(std::move(spec)), spec_text_(spec_.dump()) {
    // The request is assembled from texts already at hand; JSON work at the plugin
    // boundary is most of the host's per-run cost.
    const std::string fixed_fields =
        R"(,"run_id":)" + nlohmann::json(spec_.value("run_id", "")).dump() + R"(,"state_dir":)" +
        nlohmann::json(state_dir).dump() + R"(,"seed":)" + std::to_string(command_seed) +
        R"(,"preset":)" + preset_text;
    for (auto &injector : injectors) {
        const std::string request = R"({"spec":)" + spec_text_ + fixed_fields + "}";
        // If a later prepare throws, the destructor does not run for a half-built
        // object: tear down what was prepared so far before rethrowing.
        try {
            const auto response = nlohmann::json::parse(injector->prepare(request));
            prepared_.push_back({injector.get(), response.value("state", nlohmann::json()).dump()});
            const std::string &id = injector->plugin().id();
            if (response.value("active", false)) {
                active_.push_back(id);
            }
            if (const auto report = response.find(id); report != response.end()) {
                reports_[id] = *report;
            }
            if (const auto numbers = response.find("metrics");
                numbers != response.end() && numbers->is_object()) {
                for (const auto &[name, value] : numbers->items()) {
                    if (value.is_number()) {
                        metrics_[name] = value.get<double>();
                    }
                }
            }
            // No "spec" in the response: the injector left it unchanged.
            if (response.contains("spec") && response["spec"].is_object()) {
                spec_ = response["spec"];
                spec_text_ = spec_.dump();
            }
        } catch (...) {
            teardown_all();
            throw;
        }
    }
}

InjectionScope::~InjectionScope() {
    teardown_all();
}

void InjectionScope::teardown_all() noexcept {
    while (!prepared_.empty()) {
        auto [injector, state] = prepared_.back();
        prepared_.pop_back();
        try {
            injector->teardown(state);
        } catch (const std::exception &e) {
            // Leftovers are swept by `purge-stale`; the run's result stands.
            spdlog::error("teardown of injector '{}' failed: {}", injector->plugin().id(),
                          e.what());
        }
    }
}

}  // namespace sbx::engine
