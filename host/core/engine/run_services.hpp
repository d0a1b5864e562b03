// The services of one run, its own (service_scope: run) or its cell's, and its network
// mocks (always its own), and what a run does with them: every step's spec names them
// (upstreams and SANDBOX_UPSTREAM_<NAME>), a step cannot run while a service is down, a
// step during which one dies fails saying so, and their last output (the mocks' request
// counts) goes into the record of the run's last step.
#pragma once

#include <filesystem>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/mock_responder.hpp"
#include "engine/service_set.hpp"
#include "engine/workflow_runner.hpp"

namespace sbx::engine {

// The services a cell shares between its runs (service_scope: cell): started by the first
// of its on-runs that asks, stopped when the cell finishes. Runs of one cell ask from
// several workers.
class CellServices {
  public:
    SharedServices get(const config::Workflow &workflow, const std::filesystem::path &state_dir);
    void stop();

  private:
    std::mutex mutex_;
    bool started_ = false;
    std::unique_ptr<ServiceSet> set_;
    std::string failure_;
};

class RunServices {
  public:
    // Starts the workflow's services for this run when its scope is `run`, else uses the
    // cell's `shared` ones, and its network mocks; none for a counterfactual run, whose
    // steps run `true`.
    RunServices(const config::Workflow &workflow, bool counterfactual, const SharedServices &shared,
                const std::filesystem::path &state_dir);

    void add_to(nlohmann::json &spec) const;
    // Why no step can run: a service that could not start ("" when all did).
    [[nodiscard]] const std::string &failure() const { return failure_; }
    // "service 'db' exited with 1 before this step" when one is down now; "".
    [[nodiscard]] std::string down() const;
    // When a service has ended since the step started, every copy that ran fails with why.
    void fail_if_died(const std::string &step, std::vector<StepOutcome> &copies,
                      const std::vector<bool> &alive) const;
    // The services' last output, as `services` of the last step's result; the mocks'
    // requests as its `network_mocks` and the run's `mock_requests` metric.
    void record_into(RunOutcome &outcome) const;

  private:
    struct Mock {
        std::string listen;  // the workflow's `listen`: where the target is to connect
        std::unique_ptr<MockResponder> responder;
    };
    std::vector<Mock> mocks_;
    std::unique_ptr<ServiceSet> own_;
    const ServiceSet *set_ = nullptr;
    std::string failure_;
};

}  // namespace sbx::engine
