#include "job_request.hpp"

#include <cstdlib>

#include "file_io.hpp"

namespace sbx::guest {
namespace {

std::vector<std::string> split_nul(const std::string &text) {
    std::vector<std::string> items;
    size_t start = 0;
    while (start < text.size()) {
        const size_t end = text.find('\0', start);
        items.push_back(text.substr(start, end - start));
        if (end == std::string::npos) {
            break;
        }
        start = end + 1;
    }
    return items;
}

std::map<std::string, std::string> read_pairs(const std::string &text) {
    std::map<std::string, std::string> pairs;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) {
            end = text.size();
        }
        const std::string line = text.substr(start, end - start);
        if (const size_t space = line.find(' '); space != std::string::npos) {
            pairs[line.substr(0, space)] = line.substr(space + 1);
        }
        start = end + 1;
    }
    return pairs;
}

}  // namespace

std::uint64_t JobRequest::limit(const char *key) const {
    const auto found = limits.find(key);
    return found == limits.end() ? 0 : std::strtoull(found->second.c_str(), nullptr, 10);
}

double JobRequest::decimal_limit(const char *key) const {
    const auto found = limits.find(key);
    return found == limits.end() ? 0 : std::strtod(found->second.c_str(), nullptr);
}

std::optional<JobRequest> read_job_request(const std::string &job_dir) {
    const auto argv_text = read_file(job_dir + "/argv");
    const auto env_text = read_file(job_dir + "/env");
    const auto limits_text = read_file(job_dir + "/limits");
    if (!argv_text || !env_text || !limits_text) {
        return std::nullopt;
    }
    JobRequest request{split_nul(*argv_text), split_nul(*env_text), read_pairs(*limits_text)};
    if (request.argv.empty()) {
        return std::nullopt;
    }
    return request;
}

}  // namespace sbx::guest
