// Limits → HostConfig. Memory and MemorySwap are equal so the limit holds swap too (docker
// otherwise allows as much swap again); CPU_LIMIT is NanoCpus (a CFS quota, like --cpus).
#include "container_plan.hpp"

#include <cmath>
#include <ctime>

#include <sbx/process_identity.hpp>
#include <sbx/utf8.hpp>

namespace sbx::docker {

using nlohmann::json;

Owner Owner::current(const std::string &label) {
    const auto identity = ProcessIdentity::current();
    return {label, identity.pid, identity.start_time};
}

json owner_labels(const Owner &owner, const std::string &role) {
    return json{{owner.label, "1"},
                {owner.label + ".host-pid", std::to_string(owner.pid)},
                {owner.label + ".host-start", std::to_string(owner.start_time)},
                {owner.label + ".role", role},
                {owner.label + ".created", std::to_string(std::time(nullptr))}};
}

std::vector<std::string> target_environment(const RunSpec &spec, const std::string &workspace) {
    std::vector<std::string> env = {"HOME=" + workspace, "TMPDIR=" + workspace, "LANG=C.UTF-8"};
    for (const auto &[name, value] : spec.env) {
        if (!is_valid_utf8(value)) {
            continue;  // the command file carries it (command_file.hpp)
        }
        std::string variable = name;
        variable += '=';
        variable += value;
        env.push_back(std::move(variable));
    }
    return env;
}

void serve_through_agent(ContainerPlan &plan, const std::string &socket_inside) {
    json &host = plan.create_body["HostConfig"];
    if (host.contains("PidsLimit")) {
        host["PidsLimit"] = host["PidsLimit"].get<std::int64_t>() - 1;
    }
    host.erase("Ulimits");
    plan.create_body["Cmd"] = json::array({kRunInitMount, "--serve", socket_inside});
}

std::vector<std::string> target_command(const RunSpec &spec, const std::string &stdin_path) {
    std::vector<std::string> command = {kRunInitMount};
    if (!spec.stdin_text.empty()) {
        command.insert(command.end(), {"/bin/sh", "-c", "exec \"$@\" < " + stdin_path, "sh"});
    }
    command.insert(command.end(), spec.argv.begin(), spec.argv.end());
    return command;
}

ContainerPlan plan_container(const RunSpec &spec, const ExecutorConfig &config, const Owner &owner,
                             const std::vector<std::string> &command, const std::string &io_folder,
                             bool pooled) {
    const support::RunLimits &limits = spec.limits;
    json enforcement = json::object();
    json host = json::object();
    host["NetworkMode"] = spec.needs_network ? config.network_mode : std::string("none");
    std::vector<std::string> cmd = command;
    if (!spec.netns.empty()) {
        // The target runs in the spec's namespace, entered by the helper (netns_exec.c),
        // which alone holds CAP_SYS_ADMIN; the container's own namespace stays empty.
        host["NetworkMode"] = "none";
        host["CapAdd"] = json::array({"SYS_ADMIN"});
        cmd.insert(cmd.begin(), {kNetnsHelperMount, kNetnsMount});
        enforcement["network"] = "netns " + spec.netns + " (entered by docker-netns-exec)";
    }
    // The workspace at the same path as on the host: argv and env that name it (the host
    // expands templates with host paths) mean the same folder inside.
    host["Binds"] = json::array({spec.workspace + ":" + spec.workspace + ":rw"});
    if (limits.memory_bytes > 0) {
        host["Memory"] = limits.memory_bytes;
        host["MemorySwap"] = limits.memory_bytes;
        enforcement["memory"] = "docker Memory = MemorySwap";
    }
    if (limits.cpu_cores > 0) {
        host["NanoCpus"] = static_cast<std::int64_t>(std::llround(limits.cpu_cores * 1e9));
        enforcement["cpu"] = "docker NanoCpus (CFS quota)";
    }
    if (limits.pids > 0) {
        // The target's budget as asked: docker-run-init, and in a pool the keep-alive, take
        // one each on top.
        host["PidsLimit"] = limits.pids + (pooled ? 2 : 1);
        enforcement["pids"] = "docker PidsLimit";
    }
    if (limits.cpu_time_s > 0) {
        const auto seconds = static_cast<std::int64_t>(std::ceil(limits.cpu_time_s));
        host["Ulimits"] =
            json::array({{{"Name", "cpu"}, {"Soft", seconds}, {"Hard", seconds + 1}}});
        enforcement["cpu_time"] = "ulimit cpu";
    }
    // A read-only root leaves /tmp (a tmpfs of the container's own), /dev/shm and the
    // workspace as the only places a run can write: docker-run-init empties the first two
    // after each run, so a pooled container starts every run as the first did.
    host["ReadonlyRootfs"] = !config.writable_root;
    std::string tmp_options = "rw,exec,nosuid,nodev,mode=1777";
    if (limits.disk_bytes > 0 && !config.writable_root) {
        tmp_options += ",size=" + std::to_string(limits.disk_bytes);
        enforcement["disk"] = "tmpfs /tmp size (the root is read-only; not the workspace)";
    } else if (limits.disk_bytes > 0) {
        // Only overlay2 on xfs with pquota (and a few other drivers) accept it; the run
        // drops it and says so when the engine refuses (see execute.cpp).
        host["StorageOpt"] = {{"size", std::to_string(limits.disk_bytes)}};
        enforcement["disk"] = "docker StorageOpt size (container root, not the workspace)";
    }
    host["Tmpfs"] = {{"/tmp", tmp_options}};
    if (limits.gpus > 0) {
        host["DeviceRequests"] =
            json::array({{{"Driver", ""}, {"Count", limits.gpus}, {"Capabilities", {{"gpu"}}}}});
        enforcement["gpus"] = "docker DeviceRequests";
    }
    if (limits.timeout_ms > 0) {
        enforcement["timeout"] = "wall_clock";
    }
    // Everything that shapes the container except its command, labels and private
    // folder: runs with an equal key may share a warm container.
    const std::string pool_key =
        pooled ? json{{"image", spec.image}, {"user", config.user}, {"host", host}}.dump() : "";
    host["Binds"].push_back(config.run_init + ":" + kRunInitMount + ":ro");
    if (!io_folder.empty()) {
        host["Binds"].push_back(io_folder + ":" + kIoMount + ":ro");
    }
    if (!spec.netns.empty()) {
        host["Binds"].push_back(config.netns_helper + ":" + kNetnsHelperMount + ":ro");
        host["Binds"].push_back(spec.netns + ":" + kNetnsMount + ":ro");
    }
    // A pooled container gets each run's environment with its exec, so none of one run's
    // variables leaks into the next.
    json env = json::array();
    if (!pooled) {
        for (auto &variable : target_environment(spec, spec.workspace)) {
            env.push_back(std::move(variable));
        }
    }
    json body = {{"Image", spec.image},
                 {"Cmd", cmd},
                 {"WorkingDir", spec.workspace},
                 {"Env", env},
                 {"Labels", owner_labels(owner, pooled ? "pool" : "run")},
                 {"AttachStdin", false},
                 {"AttachStdout", false},
                 {"AttachStderr", false},
                 {"OpenStdin", false},
                 {"Tty", false},
                 {"HostConfig", host}};
    if (!config.user.empty()) {
        body["User"] = config.user;
    }
    return ContainerPlan{body, pool_key, enforcement};
}

}  // namespace sbx::docker
