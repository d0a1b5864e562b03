#include "engine/run_services.hpp"

#include <sbx/utf8.hpp>

#include <cctype>

#include "plugins/plugin.hpp"

namespace sbx::engine {

SharedServices CellServices::get(const config::Workflow &workflow,
                                 const std::filesystem::path &state_dir) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (!started_) {
        started_ = true;
        try {
            set_ = std::make_unique<ServiceSet>(workflow.services, state_dir);
        } catch (const plugins::PluginCallError &) {
            started_ = false;  // cancelled: nothing was decided for the cell
            throw;
        } catch (const std::exception &e) {
            failure_ = e.what();  // a folder that cannot be made, say: every run says why
        }
    }
    return {set_.get(), failure_};
}

void CellServices::stop() {
    const std::lock_guard<std::mutex> lock(mutex_);
    set_.reset();
}

RunServices::RunServices(const config::Workflow &workflow, bool counterfactual,
                         const SharedServices &shared, const std::filesystem::path &state_dir) {
    if (counterfactual) {
        return;
    }
    try {
        for (const auto &mock : workflow.network_mocks) {
            mocks_.push_back({mock.listen, std::make_unique<MockResponder>(mock)});
        }
    } catch (const ServiceError &e) {
        failure_ = e.what();
        return;
    }
    if (workflow.services.empty()) {
        return;
    }
    if (workflow.service_scope == config::ServiceScope::cell) {
        set_ = shared.set;
        failure_ = shared.failure;
        return;
    }
    try {
        own_ = std::make_unique<ServiceSet>(workflow.services, state_dir);
        set_ = own_.get();
    } catch (const plugins::PluginCallError &) {
        throw;  // cancelled: the run is not recorded
    } catch (const std::exception &e) {
        failure_ = e.what();
    }
}

void RunServices::add_to(nlohmann::json &spec) const {
    if (set_ != nullptr) {
        set_->add_to(spec);
    }
    if (mocks_.empty()) {
        return;
    }
    nlohmann::json &upstreams = spec["upstreams"];
    if (!upstreams.is_array()) {
        upstreams = nlohmann::json::array();
    }
    nlohmann::json &env = spec["env"];
    for (const Mock &mock : mocks_) {
        const std::string address = "127.0.0.1:" + std::to_string(mock.responder->port());
        upstreams.push_back(
            {{"name", mock.responder->name()}, {"listen", mock.listen}, {"target", address}});
        // As for `upstreams:`: the responder itself until fault_proxy stands between; a
        // step's own env wins.
        std::string variable = "SANDBOX_UPSTREAM_";
        for (const char c : mock.responder->name()) {
            variable += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        }
        if (!env.contains(variable)) {
            env[variable] = address;
        }
    }
}

std::string RunServices::down() const {
    const std::string ended = set_ != nullptr ? set_->ended() : "";
    return ended.empty() ? ended : ended + " before this step";
}

void RunServices::fail_if_died(const std::string &step, std::vector<StepOutcome> &copies,
                               const std::vector<bool> &alive) const {
    const std::string ended = set_ != nullptr ? set_->ended() : "";
    if (ended.empty()) {
        return;
    }
    for (size_t i = 0; i < copies.size() && i < alive.size(); ++i) {
        if (!alive[i]) {
            continue;
        }
        // The target's own result stays beside the verdict: it may say what the loss did.
        nlohmann::json &result = copies[i].result;
        if (!result.is_object()) {
            result = nlohmann::json::object();
        }
        result["status"] = "XX";
        std::string error = ended;
        error.append(" during step '").append(step).append("'");
        result["error"] = std::move(error);
        // A service of the system under test that died is the system's failure, not the
        // setup's (one that never became ready is the setup's: an error of the run).
        result["counts_as_failure"] = true;
        copies[i].result_text.clear();
    }
}

void RunServices::record_into(RunOutcome &outcome) const {
    if (outcome.steps.empty()) {
        return;
    }
    if (!mocks_.empty()) {
        nlohmann::json record = nlohmann::json::object();
        double requests = 0;
        for (const Mock &mock : mocks_) {
            const std::uint64_t served = mock.responder->requests();
            record[mock.responder->name()] = {{"port", mock.responder->port()},
                                              {"requests", served}};
            requests += static_cast<double>(served);
        }
        StepOutcome &last = outcome.steps.back();
        last.result["network_mocks"] = std::move(record);
        last.result_text = last.result.dump();
        outcome.host_metrics["mock_requests"] = requests;
    }
    if (set_ == nullptr) {
        return;
    }
    nlohmann::json record = set_->record();
    for (auto &[name, entry] : record.items()) {
        for (const char *stream : {"stdout", "stderr"}) {
            entry[stream] = utf8_stand_in(entry[stream].get<std::string>());
        }
    }
    StepOutcome &last = outcome.steps.back();
    last.result["services"] = std::move(record);
    last.result_text = last.result.dump();
}

}  // namespace sbx::engine
