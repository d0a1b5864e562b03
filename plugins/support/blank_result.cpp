// A result with every field of the uniform schema, zeroed.
#include "blank_result.hpp"

namespace sbx::support {

nlohmann::json blank_result(const std::string &run_id) {
    return nlohmann::json{{"run_id", run_id},
                          {"status", "XX"},
                          {"exit_code", 127},
                          {"signal", 0},
                          {"wall_s", 0.0},
                          {"cpu_user_s", 0.0},
                          {"cpu_sys_s", 0.0},
                          {"max_rss_kb", 0},
                          {"stdout", ""},
                          {"stderr", ""},
                          {"stdout_bytes", 0},
                          {"stderr_bytes", 0},
                          {"stdout_truncated", false},
                          {"stderr_truncated", false},
                          {"limit", ""},
                          {"limits_hit", nlohmann::json::array()},
                          {"error", ""}};
}

}  // namespace sbx::support
