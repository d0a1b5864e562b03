// Injector prepare/teardown pairing.
#include "engine/injection_scope.hpp"

#include <spdlog/spdlog.h>

namespace sbx::engine {

InjectionScope::InjectionScope(std::vector<std::unique_ptr<plugins::Instance>> &injectors,
                               const std::set<std::string> &idle, const std::string &preset_text,
                               nlohmann::json spec, const std::string &state_dir,
                               int64_t command_seed, int repetition)
    : spec_(std::move(spec)), spec_text_(spec_.dump()) {
    // The request is assembled from texts already at hand; JSON work at the plugin
    // boundary is most of the host's per-run cost.
    std::string fixed_fields = R"(,"run_id":)" + nlohmann::json(spec_.value("run_id", "")).dump() +
                               R"(,"state_dir":)" + nlohmann::json(state_dir).dump() +
                               R"(,"seed":)" + std::to_string(command_seed) + R"(,"preset":)" +
                               preset_text;
    if (repetition >= 0) {
        fixed_fields.append(R"(,"repetition":)").append(std::to_string(repetition));
    }
    // An idle mark is a promise about the preset for runs in the host's network: a
    // safe_mode run asks every injector (the network injector then makes its namespace).
    const bool safe_mode = spec_.value("safe_mode", false);
    for (auto &injector : injectors) {
        if (!safe_mode && idle.count(injector->plugin().id()) != 0) {
            continue;
        }
        const std::string request = R"({"spec":)" + spec_text_ + fixed_fields + "}";
        // If a later prepare throws, the destructor does not run for a half-built
        // object: tear down what was prepared so far before rethrowing.
        try {
            const auto response = nlohmann::json::parse(injector->prepare(request));
            const bool active = response.value("active", false);
            prepared_.push_back(
                {injector.get(), response.value("state", nlohmann::json()).dump(), active});
            const std::string &id = injector->plugin().id();
            if (active) {
                active_.push_back(id);
                add_injector_response(tally_, id, response);
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

void InjectionScope::tally_after_run() {
    for (const auto &prepared : prepared_) {
        if (!prepared.active) {
            continue;
        }
        const std::string &id = prepared.injector->plugin().id();
        try {
            const auto response = nlohmann::json::parse(prepared.injector->tally(prepared.state));
            if (!response.is_object() || !response.contains("applied")) {
                continue;  // {}: prepare's word stands
            }
            tally_.applied.erase(id);
            tally_.not_applied.erase(id);
            tally_.missed.erase(id);
            add_injector_response(tally_, id, response);
        } catch (const plugins::PluginCallError &e) {
            if (e.status() == SBX_CANCELLED) {
                throw;
            }
            spdlog::warn("tally of injector '{}' failed ({}); its prepare's word stands", id,
                         e.what());
        } catch (const nlohmann::json::exception &e) {
            spdlog::warn(
                "injector '{}' answered tally with no JSON object ({}); its prepare's "
                "word stands",
                id, e.what());
        }
    }
}

InjectionScope::~InjectionScope() {
    teardown_all();
}

void InjectionScope::teardown_all() noexcept {
    while (!prepared_.empty()) {
        auto [injector, state, active] = prepared_.back();
        (void)active;
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
