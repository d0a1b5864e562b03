#include "reports/replay_line.hpp"

#include <filesystem>

#include "util/shell_word.hpp"

namespace sbx::reports {
namespace {

std::string absolute(const std::string &path) {
    std::error_code error;
    const auto made = std::filesystem::absolute(path, error);
    return error ? path : made.lexically_normal().string();
}

bool is_embedded(const std::string &settings_source) {
    const std::string mark = "(embedded)";
    return settings_source.empty() ||
           (settings_source.size() >= mark.size() &&
            settings_source.compare(settings_source.size() - mark.size(), mark.size(), mark) == 0);
}

}  // namespace

std::string command_prefix(const std::string &settings_source, const std::string &data_dir) {
    std::string prefix = "sandbox-runner";
    if (!is_embedded(settings_source)) {
        prefix += " --config " + shell_word(absolute(settings_source));
    }
    return prefix + " --data-dir " + shell_word(absolute(data_dir));
}

std::string replay_line(const std::string &command_prefix, int64_t run) {
    return command_prefix + " replay " + std::to_string(run);
}

}  // namespace sbx::reports
