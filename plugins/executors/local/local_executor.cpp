// The `local` executor plugin: runs each command as a child of the host, in a fresh
// workspace and its own PID namespace, under cgroup and rlimit limits.
#include <sbx/plugin.hpp>

#include <string>

#include "config.hpp"
#include "execute.hpp"
#include "run_spec.hpp"

namespace sbx::local {

class LocalExecutor final : public Executor {
  public:
    static constexpr About about{
        "local",
        "Local executor",
        "1.0.0",
        "Runs a command as a child process in a fresh workspace and its own PID namespace, "
        "with wall-clock, CPU-time, memory, pids, file-size and output limits.",
        kConfigSchema,
        "sandbox-runner"};

    // The host validated `config_json` against kConfigSchema; parse_config checks again.
    explicit LocalExecutor(const std::string &config_json) : config_(parse_config(config_json)) {}

    std::string run(const std::string &spec_json) override {
        const support::RunSpec spec = parse_run_spec(spec_json, config_);
        // Replace, never throw, on bytes that are not UTF-8 (env values, paths in errors).
        return execute(spec, config_)
            .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }

  private:
    ExecutorConfig config_;
};

}  // namespace sbx::local

SBX_PLUGIN(sbx::local::LocalExecutor);
