// The `docker` executor plugin: runs each command in a Docker container through the
// Engine API, with the workspace bind-mounted, warm containers reused through exec.
#include <dlfcn.h>
#include <unistd.h>
#include <sbx/plugin.hpp>

#include <atomic>
#include <filesystem>
#include <memory>
#include <string>

#include "config.hpp"
#include "container_pool.hpp"
#include "engine_connection.hpp"
#include "result.hpp"
#include "run_once.hpp"
#include "run_pooled.hpp"
#include "run_spec.hpp"
#include "support/workspace.hpp"
#include "sweep.hpp"

namespace sbx::docker {

class DockerExecutor final : public Executor {
  public:
    static constexpr About about{
        "docker",
        "Docker executor",
        "1.0.0",
        "Runs a command in a Docker container (Engine API over the unix socket) with the "
        "workspace bind-mounted, memory, CPU, pids, disk and GPU limits, no network by "
        "default, and a pool of warm containers reused through exec.",
        kConfigSchema,
        "sandbox-runner"};

    explicit DockerExecutor(const std::string &config_json)
        : config_(with_helpers(parse_config(config_json))),
          api_(connect_engine(std::chrono::milliseconds(config_.call_timeout_ms),
                              std::chrono::milliseconds(config_.start_timeout_ms))),
          owner_(Owner::current(config_.pool_label)),
          pool_(config_, tally_) {}

    std::string run(const std::string &spec_json) override {
        if (host::cancelled()) {
            throw Error(SBX_CANCELLED, "run not started: the host is cancelling");
        }
        RunSpec spec = parse_run_spec(spec_json, config_);
        if (spec.probe) {
            // The engine holds every limit as asked: nothing is downgraded, and a probe must
            // not start a container.
            nlohmann::json result = empty_result(spec);
            result["status"] = "OK";
            result["probe"] = true;
            result["downgraded"] = nlohmann::json::array();
            if (spec.safe_mode) {
                result["safe_mode"] = "netns or network none";
            }
            return finish(result);
        }
        purge_at_start(spec.state_dir);
        if (config_.run_init.empty()) {
            // Without it a target would be PID 1 and a pooled run would leave its processes.
            nlohmann::json result = empty_result(spec);
            result["error"] =
                "the docker executor cannot run: its helper docker-run-init is "
                "not beside docker.so; reinstall the plugin";
            return finish(result);
        }
        if (!spec.netns.empty() && config_.netns_helper.empty()) {
            // Never run outside the injector's namespace: say why instead.
            nlohmann::json result = empty_result(spec);
            result["error"] = "the docker executor cannot run in network namespace '" + spec.netns +
                              "' (run spec: netns): its helper docker-netns-exec is not beside "
                              "docker.so; reinstall the plugin, or use the local executor";
            return finish(result);
        }
        support::Workspace workspace = support::Workspace::for_spec(
            spec.workspace, spec.keep_workspace, config_.workspace_root, spec.run_id);
        spec.workspace = workspace.path();
        workspace.write_files(spec.files);

        StartContext context{*api_, config_, spec.state_dir, tally_};
        // A namespace is the run's own (the injector makes one per run), so such a run gets
        // a container of its own: a warm container cannot be moved into it.
        // A writable root could keep what a run wrote anywhere in it: only a container of
        // its own starts each such run from the image.
        nlohmann::json result = config_.pool && spec.netns.empty() && !config_.writable_root
                                    ? run_pooled(context, pool_, spec, owner_)
                                    : run_once(context, spec, owner_);
        if (spec.safe_mode) {
            result["safe_mode"] = spec.netns.empty() ? "network none" : "netns";
        }
        if (!spec.netns.empty()) {
            result["netns"] = spec.netns;
            if (config_.pool) {
                result["pool"] = "netns: ran in a container of its own";
            }
        } else if (config_.pool && config_.writable_root) {
            result["pool"] = "writable_root: ran in a container of its own";
        }
        if (workspace.survives()) {
            result["workspace"] = workspace.path();
        }
        return finish(result);
    }

    std::string sweep(const std::string &request_json) override {
        const auto request = nlohmann::json::parse(request_json, nullptr, false);
        nlohmann::json response = sweep_stale(
            *api_, config_, request.is_object() ? request : nlohmann::json::object(), tally_);
        response["counters"] = tally_.take();
        return dump(response);
    }

  private:
    // docker-netns-exec and docker-run-init are installed beside docker.so.
    static ExecutorConfig with_helpers(ExecutorConfig config) {
        Dl_info self{};
        if (::dladdr(reinterpret_cast<void *>(&DockerExecutor::with_helpers), &self) == 0 ||
            self.dli_fname == nullptr) {
            return config;
        }
        const auto folder = std::filesystem::path(self.dli_fname).parent_path();
        const auto found = [&folder](const char *name) {
            const auto helper = folder / name;
            return ::access(helper.c_str(), X_OK) == 0 ? std::filesystem::absolute(helper).string()
                                                       : std::string();
        };
        config.netns_helper = found("docker-netns-exec");
        config.run_init = found("docker-run-init");
        return config;
    }

    // What a crashed host left, removed before this process's first run (the sweep of
    // purge-stale, for this executor), so leftovers do not wait for a timer. Once per
    // process, not per worker; a failure is logged, never the run's.
    void purge_at_start(const std::string &state_dir) {
        static std::atomic<bool> done{false};
        if (!config_.purge_at_start || done.exchange(true)) {
            return;
        }
        try {
            const auto swept =
                sweep_stale(*api_, config_, {{"state_dir", state_dir}, {"dry_run", false}}, tally_);
            for (const auto &line : swept["removed"]) {
                host::log(SBX_LOG_INFO, "removed at start: " + line.get<std::string>());
            }
        } catch (const std::exception &e) {
            host::log(SBX_LOG_WARN, std::string("could not remove dead hosts' containers at "
                                                "start (`sandbox-runner purge-stale` will): ") +
                                        e.what());
        }
    }

    // Adds what was cleaned up since the last report (`cleanup`, absent when nothing).
    std::string finish(nlohmann::json &result) {
        nlohmann::json cleanup = tally_.take();
        if (!cleanup.empty()) {
            result["cleanup"] = std::move(cleanup);
        }
        return dump(result);
    }

    static std::string dump(const nlohmann::json &result) {
        return result.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }

    ExecutorConfig config_;
    std::unique_ptr<EngineApi> api_;
    Owner owner_;
    CleanupTally tally_;  // before the pool, which counts into it until it is gone
    ContainerPool pool_;  // destroyed first: its containers go before the client does
};

}  // namespace sbx::docker

SBX_PLUGIN(sbx::docker::DockerExecutor);
