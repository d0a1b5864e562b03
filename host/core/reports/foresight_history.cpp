// Appending trajectory cycles to foresight_history.json.
#include "reports/foresight_history.hpp"

#include "util/atomic_file.hpp"
#include "util/errors.hpp"
#include "util/input_file.hpp"
#include "util/json_input.hpp"

namespace sbx::reports {

using nlohmann::json;

json foresight_cycle(const std::string &workflow, int64_t session,
                     const std::vector<scoring::StageMetrics> &stages) {
    json cycle{{"workflow", workflow}, {"session", session}, {"stages", json::array()}};
    for (const auto &stage : stages) {
        cycle["stages"].push_back(stage.stage);
        cycle[stage.stage + "_roi"] = stage.roi;
        cycle[stage.stage + "_degradation"] = stage.degradation;
        cycle[stage.stage + "_resilience"] = stage.resilience;
    }
    cycle["stability"] = stages.empty() ? 1.0 : stages.back().stability;
    return cycle;
}

void append_foresight_cycle(const std::filesystem::path &path, const json &cycle) {
    json document{{"format", kForesightFormat}, {"cycles", json::array()}};
    std::error_code ec;
    if (std::filesystem::exists(path, ec)) {
        const std::string fix = "move the file away to start a new history";
        document = parse_json_input(read_input_file(path, "the foresight history", fix),
                                    path.string(), "the foresight history", fix);
        if (!document.is_object() || document.value("format", json()) != kForesightFormat ||
            !document.value("cycles", json()).is_array()) {
            throw InputError(path.string() + ": not a sandbox-runner foresight history; " + fix);
        }
    }
    document["cycles"].push_back(cycle);
    write_file_atomically(path, document.dump(2) + "\n");
}

}  // namespace sbx::reports
