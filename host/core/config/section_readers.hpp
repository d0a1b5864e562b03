// The loader's readers for the larger sections of sandbox_settings.yaml (internal to
// config/): each turns one YAML section into the model or fails with file:line:column.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "config/settings.hpp"
#include "config/yaml_reader.hpp"

namespace sbx::config {

// `workflows:` -> workflows with unique names and ids, each with steps, baselines checked.
std::vector<Workflow> read_workflows(const YamlReader &reader, const Field &field);

// A workflow's `services:` (names unique among its services and `upstreams`, case aside)
// and `service_scope:` (run or cell).
std::vector<Service> read_services(const YamlReader &reader, const Field &field,
                                   const std::string &workflow,
                                   const std::vector<Upstream> &upstreams);
ServiceScope read_service_scope(const YamlReader &reader, const Field &field);

// A workflow's `network_mocks:` (names unique among its mocks, upstreams and services, case
// aside; a fixed listen address unique among its mocks and upstreams; body_file read now).
std::vector<NetworkMock> read_network_mocks(const YamlReader &reader, const Field &field,
                                            const std::string &workflow,
                                            const std::vector<Upstream> &upstreams,
                                            const std::vector<Service> &services);

// "host:port" or "[v6 address]:port" with a decimal port; port 0 only where `any_port`.
// Otherwise false, with `why` ("is not host:port", "has port 70000, ...").
bool is_host_port(const std::string &text, bool any_port, std::string &why);

// One step of a workflow (`what` names it in messages: "step 2 of workflow 'ci'").
Step read_step(const YamlReader &reader, const Field &field, const std::string &what);

// One entry of a step's `inputs:` (the key is the slot name) and a step's `expect:`.
InputSlot read_input_slot(const YamlReader &reader, const Field &field, const std::string &what);
Expectation read_expectation(const YamlReader &reader, const Field &field, const std::string &what);
// A step's `rejects:` ({exit_codes: [1, 2]}: sorted, each once, none equal to the expected
// exit code) and its `scoring:` (robust or strict).
std::vector<int> read_rejects(const YamlReader &reader, const Field &field, const std::string &what,
                              const Expectation &expect);
Scoring read_scoring(const YamlReader &reader, const Field &field, const std::string &what);

// One preset mapping: string keys (environment variable names) to scalars, FAILURE_MODES
// may be a list; known unit-bearing keys are checked (see preset_checks.hpp).
nlohmann::json read_preset(const YamlReader &reader, const Field &field, const std::string &what);

// `presets:` (a list of preset mappings) and `scenarios:` (a list of {name, preset}).
void read_presets(const YamlReader &reader, const Field &field, Settings &settings);
void read_scenarios(const YamlReader &reader, const Field &field, Settings &settings);

// `plugins:` -> per-plugin configuration sections with JSON-pointer locations.
void read_plugin_configs(const YamlReader &reader, const Field &field, Settings &settings);

// `plugin_host:` -> isolation mode, call deadline, restarts, on_crash, per-plugin overrides.
void read_plugin_host(const YamlReader &reader, const Field &field, Settings &settings);

// `slurm:` -> partition, account, time limit, workers per task, shards, extra sbatch options.
void read_slurm(const YamlReader &reader, const Field &field, Settings &settings);

}  // namespace sbx::config
