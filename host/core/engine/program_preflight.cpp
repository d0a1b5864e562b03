// Finding each step's program before the first run.
#include "engine/program_preflight.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <system_error>

#include "config/templates.hpp"
#include "util/errors.hpp"

namespace sbx::engine {

namespace {

// The local executor's default when the host has no PATH (plugins/executors/local).
constexpr const char *kDefaultPath = "/usr/local/bin:/usr/bin:/bin";

bool has_template(const std::string &text) {
    try {
        return !config::find_input_templates(text).empty();
    } catch (const std::invalid_argument &) {
        return true;  // the loader refused malformed templates already
    }
}

// "" when `path` is a file this process may execute; otherwise why not.
std::string why_not_executable(const std::filesystem::path &path) {
    std::error_code error;
    const auto status = std::filesystem::status(path, error);
    if (error || !std::filesystem::exists(status)) {
        return "it does not exist";
    }
    if (std::filesystem::is_directory(status)) {
        return "it is a directory";
    }
    if (::access(path.c_str(), X_OK) != 0) {
        return std::string("it cannot be executed (") + std::strerror(errno) +
               "; chmod +x it, or run it through its interpreter)";
    }
    return "";
}

std::string search_path(const config::Step &step) {
    if (const auto found = step.env.find("PATH"); found != step.env.end()) {
        return found->second;
    }
    const char *host = std::getenv("PATH");
    return host != nullptr && host[0] != '\0' ? host : kDefaultPath;
}

// True when `name` is an executable file in one of the absolute folders of `path`. Relative
// entries name folders of the run's workspace, which does not exist yet: a program there is
// given the benefit of the doubt.
bool found_on_path(const std::string &name, const std::string &path) {
    size_t start = 0;
    while (start <= path.size()) {
        const size_t end = std::min(path.find(':', start), path.size());
        const std::string folder = path.substr(start, end - start);
        start = end + 1;
        if (folder.empty() || folder.front() != '/') {
            return true;
        }
        if (why_not_executable(std::filesystem::path(folder) / name).empty()) {
            return true;
        }
    }
    return false;
}

}  // namespace

void refuse_missing_programs(PluginSet &plugins, const config::Workflow &workflow,
                             const std::filesystem::path &invocation_dir) {
    if (plugins.executor_for(workflow).plugin().id() != "local") {
        return;
    }
    for (const auto &step : workflow.steps) {
        const std::string &program = step.run.front();
        if (program.empty() || has_template(program)) {
            continue;  // filled per input set: judged per run
        }
        const std::string subject = step.where.str() + ": step '" + step.name + "' of workflow '" +
                                    workflow.name + "' runs '" + program + "', but ";
        if (program.find('/') == std::string::npos) {
            const std::string path = search_path(step);
            if (!found_on_path(program, path)) {
                throw InputError(std::string(subject)
                                     .append("no executable of that name is on the target's PATH (")
                                     .append(path)
                                     .append("); install it, give its absolute path, or set PATH "
                                             "in the step's env:"));
            }
            continue;
        }
        // A relative path is relative to where sandbox-runner was started (as the runs use it).
        const std::filesystem::path resolved = program.front() == '/'
                                                   ? std::filesystem::path(program)
                                                   : (invocation_dir / program).lexically_normal();
        if (const std::string why = why_not_executable(resolved); !why.empty()) {
            std::string message = subject;
            message.append(resolved.string()).append(" is no program to run: ").append(why);
            if (program.front() != '/') {
                message
                    .append(
                        "; a relative program path is taken from the folder "
                        "sandbox-runner was started in (")
                    .append(invocation_dir.string())
                    .append(")");
            }
            throw InputError(message);
        }
    }
}

}  // namespace sbx::engine
