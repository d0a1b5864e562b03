// Writing and reading a run's cell share.
#include "engine/cell_share.hpp"

#include "util/errors.hpp"

namespace sbx::engine {

using nlohmann::json;

json cell_share_of(const RunResult &result) {
    json aggregations = json::object();
    for (const auto &[name, aggregation] : result.aggregations) {
        aggregations[name] = plugins::aggregation_name(aggregation);
    }
    return {{"executions", result.executions},
            {"passed_executions", result.passed_executions},
            {"failures", result.failures},
            {"active_injectors", result.active_injectors},
            {"aggregations", aggregations},
            {"collector_metrics", result.collector_metrics},
            {"harness_error", result.harness_error},
            {"failure_detail", result.failure_detail},
            {"faults_applied", result.faults.applied},
            {"faults_missed", result.faults.not_applied},
            {"faults_unmet", result.faults.missed}};
}

RunResult run_result_from(const store::CommittedRun &run) {
    RunResult result;
    result.run_id = run.run_id;
    result.passed = run.passed;
    result.metrics = run.metrics;
    try {
        const json share = json::parse(run.cell_share);
        result.executions = share.at("executions").get<int>();
        result.passed_executions = share.at("passed_executions").get<int>();
        result.failures = share.at("failures").get<std::vector<std::string>>();
        result.active_injectors = share.at("active_injectors").get<std::vector<std::string>>();
        for (const auto &[name, text] : share.at("aggregations").items()) {
            const auto aggregation = plugins::parse_aggregation(text.get<std::string>());
            if (!aggregation) {
                throw std::invalid_argument("unknown aggregation " + text.dump());
            }
            result.aggregations[name] = *aggregation;
        }
        // Written since schema 10's host; an older host's runs had neither.
        result.harness_error = share.value("harness_error", std::string());
        result.failure_detail = share.value("failure_detail", std::string());
        using Texts = std::map<std::string, std::string>;
        result.faults.applied = share.value("faults_applied", Texts());
        result.faults.not_applied = share.value("faults_missed", Texts());
        result.faults.missed = share.value("faults_unmet", Texts());
        const auto listed = share.at("collector_metrics").get<std::vector<std::string>>();
        result.collector_metrics.insert(listed.begin(), listed.end());
    } catch (const std::exception &e) {
        throw EnvironmentError("run " + std::to_string(run.run_id) +
                               " has a cell_share the host did not write (" + e.what() +
                               "); the database is damaged: run the command without --recover");
    }
    return result;
}

}  // namespace sbx::engine
