// Parsing and validation of the run spec. Everything that can be refused is refused here,
// before a workspace, a cgroup or a process exists.
#include "run_spec.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "json_fields.hpp"
#include "raw_fields.hpp"

namespace sbx::support {

RunLimits read_run_limits(const nlohmann::json &limits, const RunSpecDefaults &defaults) {
    RunLimits result;
    result.timeout_ms = defaults.timeout_ms;
    result.output_bytes = defaults.output_bytes;
    if (limits.is_null()) {
        return result;
    }
    if (!limits.is_object()) {
        invalid("run spec: limits", "must be an object, got " + limits.dump());
    }
    for (const auto &[key, value] : limits.items()) {
        const std::string where = "run spec: limits." + key;
        if (value.is_null()) {
            continue;  // null reads as absent
        }
        if (key == "timeout_ms") {
            result.timeout_ms = read_count(value, where);
        } else if (key == "cpu_time_s") {
            result.cpu_time_s = read_non_negative(value, where);
        } else if (key == "memory_bytes") {
            result.memory_bytes = read_count(value, where);
        } else if (key == "disk_bytes") {
            result.disk_bytes = read_count(value, where);
        } else if (key == "pids") {
            result.pids = read_count(value, where);
        } else if (key == "cpu_cores") {
            result.cpu_cores = read_non_negative(value, where);
        } else if (key == "disk_write_bps") {
            result.disk_write_bps = read_count(value, where);
        } else if (key == "gpus") {
            result.gpus = read_count(value, where);
        } else if (key == "output_bytes") {
            // 0 would mean "capture everything", which lets one run exhaust the host's memory.
            const std::uint64_t bytes = read_count(value, where);
            result.output_bytes = bytes > 0 ? bytes : defaults.output_bytes;
        }
        // Other limits (bandwidth...) belong to injectors; ignore them here.
    }
    return result;
}

namespace {

std::vector<std::pair<std::string, std::string>> parse_string_map(const nlohmann::json &map,
                                                                  const std::string &where) {
    std::vector<std::pair<std::string, std::string>> result;
    if (map.is_null()) {
        return result;
    }
    if (!map.is_object()) {
        invalid(where, "must be an object of strings, got " + map.dump());
    }
    for (const auto &[key, value] : map.items()) {
        if (key.find('\0') != std::string::npos) {
            invalid(where, "a key contains a NUL byte");
        }
        std::string field = where;
        field += '.';
        field += key;
        result.emplace_back(key, read_string(value, field));
    }
    return result;
}

}  // namespace

void check_workspace_path(const std::string &path, const std::string &where) {
    if (path.empty()) {
        invalid(where, "a file path is empty");
    }
    if (path.find('\0') != std::string::npos) {
        invalid(where, "file path '" + path + "' contains a NUL byte");
    }
    if (path.front() == '/') {
        invalid(where, "file path '" + path +
                           "' is absolute; write it relative to the workspace, e.g. 'data/in.txt'");
    }
    if (path.back() == '/') {
        invalid(where, "file path '" + path + "' names a folder; name a file");
    }
    bool has_name = false;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        const std::string component = path.substr(start, end - start);
        if (component == "..") {
            invalid(where, "file path '" + path + "' leaves the workspace through '..'");
        }
        has_name = has_name || (!component.empty() && component != ".");
        start = end + 1;
    }
    if (!has_name) {
        invalid(where, "file path '" + path + "' names no file");
    }
}

namespace {

// The spec's `show`: absolute paths, "PATH:rw" for writable ones. A path that does not exist
// is left out, not refused: a step may name a file it has yet to make.
std::vector<BindPath> read_shown_paths(const nlohmann::json &show, const std::string &where) {
    if (!show.is_array()) {
        invalid(where,
                "must be an array of absolute paths, e.g. [\"/srv/app\", \"/var/log/app:rw\"]");
    }
    std::vector<std::string> present;
    for (std::size_t i = 0; i < show.size(); ++i) {
        const std::string entry = read_c_string(show[i], where + "[" + std::to_string(i) + "]");
        const std::string path = entry.size() > 3 && entry.compare(entry.size() - 3, 3, ":rw") == 0
                                     ? entry.substr(0, entry.size() - 3)
                                     : entry;
        struct stat info {};
        if (path.empty() || path.front() != '/') {
            invalid(where, "'" + entry + "' is not an absolute path");
        }
        if (::stat(path.c_str(), &info) == 0 && path != "/") {
            present.push_back(entry);
        }
    }
    return read_binds(present, where);
}

}  // namespace

nlohmann::json parse_spec_object(const std::string &spec_json) {
    nlohmann::json spec;
    try {
        spec = nlohmann::json::parse(spec_json);
    } catch (const nlohmann::json::parse_error &e) {
        invalid("run spec", std::string("is not JSON: ") + e.what());
    }
    if (!spec.is_object()) {
        invalid("run spec", "must be an object, got " + spec.dump());
    }
    return spec;
}

CommandSpec read_command_spec(const nlohmann::json &spec) {
    CommandSpec result;
    if (spec.contains("run_id") && !spec["run_id"].is_null()) {
        result.run_id = read_string(spec["run_id"], "run spec: run_id");
    }

    const nlohmann::json &argv = spec.contains("argv") ? spec["argv"] : nlohmann::json();
    if (!argv.is_array() || argv.empty()) {
        invalid("run spec: argv", "must be a non-empty array of strings, e.g. [\"/bin/true\"]");
    }
    for (std::size_t i = 0; i < argv.size(); ++i) {
        result.argv.push_back(read_c_string(argv[i], "run spec: argv[" + std::to_string(i) + "]"));
    }
    if (result.argv.front().empty()) {
        invalid("run spec: argv[0]", "names no program");
    }

    if (spec.contains("env")) {
        result.env = parse_string_map(spec["env"], "run spec: env");
        for (const auto &[name, value] : result.env) {
            if (name.empty() || name.find('=') != std::string::npos) {
                invalid("run spec: env", "'" + name + "' is not a variable name");
            }
            if (value.find('\0') != std::string::npos) {
                invalid("run spec: env." + name, "contains a NUL byte");
            }
        }
    }
    if (spec.contains("stdin") && !spec["stdin"].is_null()) {
        result.stdin_text = read_string(spec["stdin"], "run spec: stdin");
    }
    if (spec.contains("files")) {
        result.files = parse_string_map(spec["files"], "run spec: files");
        for (const auto &file : result.files) {
            check_workspace_path(file.first, "run spec: files");
        }
    }
    if (spec.contains("workspace") && !spec["workspace"].is_null()) {
        const std::string folder = read_c_string(spec["workspace"], "run spec: workspace");
        if (!folder.empty()) {
            struct stat info {};
            if (::stat(folder.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
                invalid("run spec: workspace",
                        "'" + folder + "' is not an existing folder; create it or leave it out");
            }
            result.workspace = std::filesystem::absolute(folder).lexically_normal().string();
        }
    }
    if (spec.contains("keep_workspace") && !spec["keep_workspace"].is_null()) {
        result.keep_workspace = read_bool(spec["keep_workspace"], "run spec: keep_workspace");
    }
    if (spec.contains("netns") && !spec["netns"].is_null()) {
        result.netns = read_c_string(spec["netns"], "run spec: netns");
    }
    if (spec.contains("safe_mode") && !spec["safe_mode"].is_null()) {
        result.safe_mode = read_bool(spec["safe_mode"], "run spec: safe_mode");
    }
    if (spec.contains("probe") && !spec["probe"].is_null()) {
        result.probe = read_bool(spec["probe"], "run spec: probe");
    }
    apply_raw_fields(spec, result);
    return result;
}

RunSpec read_run_spec(const nlohmann::json &spec, const RunSpecDefaults &defaults) {
    RunSpec result;
    static_cast<CommandSpec &>(result) = read_command_spec(spec);
    result.limits =
        read_run_limits(spec.contains("limits") ? spec["limits"] : nlohmann::json(), defaults);
    result.filesystem = defaults.filesystem;
    if (spec.contains("filesystem") && !spec["filesystem"].is_null()) {
        result.filesystem = read_filesystem_mode(
            read_string(spec["filesystem"], "run spec: filesystem"), "run spec: filesystem");
    }
    if (spec.contains("binds") && !spec["binds"].is_null()) {
        const nlohmann::json &binds = spec["binds"];
        if (!binds.is_array()) {
            invalid("run spec: binds", "must be an array of absolute paths, e.g. [\"/usr\"]");
        }
        std::vector<std::string> entries;
        for (std::size_t i = 0; i < binds.size(); ++i) {
            entries.push_back(
                read_c_string(binds[i], "run spec: binds[" + std::to_string(i) + "]"));
        }
        result.binds = read_binds(entries, "run spec: binds");
        if (!result.binds.empty() && result.filesystem != FilesystemMode::kMinimal) {
            invalid("run spec: binds", "only apply to filesystem: minimal");
        }
    }
    if (spec.contains("show") && !spec["show"].is_null()) {
        result.show = read_shown_paths(spec["show"], "run spec: show");
    }
    return result;
}

}  // namespace sbx::support
