// The local executor's defaults for the shared run-spec reader.
#include "run_spec.hpp"

namespace sbx::local {

support::RunSpec parse_run_spec(const std::string &spec_json, const ExecutorConfig &config) {
    return support::read_run_spec(support::parse_spec_object(spec_json),
                                  config.run_spec_defaults());
}

}  // namespace sbx::local
