// Injector prepare/teardown pairing.
#include "engine/injection_scope.hpp"

#include <spdlog/spdlog.h>

namespace sbx::engine {

InjectionScope::InjectionScope(std::vector<std::unique_ptr<plugins::Instance>> &injectors,
                               const nlohmann::json &preset, nlohmann::json spec,
                               const std::string &state_dir)
    : spec_(std::move(spec)) {
    for (auto &injector : injectors) {
        const nlohmann::json request{{"preset", preset},
                                     {"spec", spec_},
                                     {"run_id", spec_.value("run_id", "")},
                                     {"state_dir", state_dir}};
        // If a later prepare throws, the destructor does not run for a half-built
        // object: tear down what was prepared so far before rethrowing.
        try {
            const auto response = nlohmann::json::parse(injector->prepare(request.dump()));
            prepared_.push_back({injector.get(), response.value("state", nlohmann::json()).dump()});
            if (response.value("active", false)) {
                active_.push_back(injector->plugin().id());
            }
            if (response.contains("spec") && response["spec"].is_object()) {
                spec_ = response["spec"];
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
