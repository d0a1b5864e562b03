// Reading and writing roi_history.json.
#include "reports/roi_history.hpp"

#include "util/atomic_file.hpp"
#include "util/errors.hpp"
#include "util/input_file.hpp"
#include "util/json_input.hpp"

namespace sbx::reports {
namespace {

using nlohmann::json;

std::vector<double> numbers(const json &value, const std::string &where) {
    if (!value.is_array()) {
        throw InputError(where + " must be a list of numbers");
    }
    std::vector<double> out;
    out.reserve(value.size());
    for (const auto &item : value) {
        if (!item.is_number()) {
            throw InputError(where + " must be a list of numbers, found " +
                             std::string(item.type_name()));
        }
        out.push_back(item.get<double>());
    }
    return out;
}

// "file: scenarios.NAME" — how errors name a scenario's part of the file.
std::string scenario_origin(const std::string &origin, const std::string &name) {
    return origin + (origin.find(": scenarios.") == std::string::npos ? ": scenarios." : ".") +
           name;
}

// One list of a scenario's series; `where` names the scenario in errors.
std::vector<double> series_field(const json &series, const std::string &where, const char *key) {
    return numbers(series.value(key, json::array()), where + "." + key);
}

}  // namespace

RoiHistory load_roi_history(const std::filesystem::path &path) {
    RoiHistory history;
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        return history;
    }
    const std::string origin = path.string();
    const std::string fix = "point at a roi_history.json written by sandbox-runner, or delete it";
    const json document = parse_json_input(
        read_input_file(path, "the ROI history", "check the path"), origin, "the ROI history", fix);
    if (!document.is_object() || document.value("format", json()) != kRoiHistoryFormat) {
        throw InputError(origin + ": not a sandbox-runner ROI history (\"format\" is not \"" +
                         kRoiHistoryFormat + "\"); " + fix);
    }
    try {
        if (document.contains("tracker")) {
            history.tracker = document["tracker"];
        }
        const json scenarios = document.value("scenarios", json::object());
        if (!scenarios.is_object()) {
            throw InputError(origin + ": \"scenarios\" must be an object; " + fix);
        }
        for (const auto &[name, series] : scenarios.items()) {
            const std::string where = scenario_origin(origin, name);
            auto &out = history.scenarios[name];
            out.roi = series_field(series, where, "roi");
            out.roi_delta = series_field(series, where, "roi_delta");
            out.raroi = series_field(series, where, "raroi");
            const json metrics = series.value("metrics", json::object());
            if (!metrics.is_object()) {
                throw InputError(scenario_origin(where, "metrics") + " must be an object; " + fix);
            }
            for (const auto &[metric, values] : metrics.items()) {
                out.metrics[metric] = series_field(metrics, where + ".metrics", metric.c_str());
            }
        }
    } catch (const json::exception &e) {
        throw InputError(origin + ": " + e.what() + "; " + fix);
    }
    return history;
}

json to_json(const RoiHistory &history) {
    json scenarios = json::object();
    for (const auto &[name, series] : history.scenarios) {
        scenarios[name] = {{"roi", series.roi},
                           {"roi_delta", series.roi_delta},
                           {"raroi", series.raroi},
                           {"metrics", series.metrics}};
    }
    return {{"format", kRoiHistoryFormat}, {"tracker", history.tracker}, {"scenarios", scenarios}};
}

void save_roi_history(const std::filesystem::path &path, const RoiHistory &history) {
    write_file_atomically(path, to_json(history).dump(2) + "\n");
}

presets::ScenarioSeries adaptation_series(const RoiHistory &history, const std::string &scenario) {
    presets::ScenarioSeries series;
    const auto found = history.scenarios.find(scenario);
    if (found == history.scenarios.end()) {
        return series;
    }
    series.roi = found->second.roi;
    const auto metric = [&](const char *name) {
        const auto values = found->second.metrics.find(name);
        return values == found->second.metrics.end() ? std::vector<double>{} : values->second;
    };
    series.synergy_roi = metric("synergy_roi");
    series.security_score = metric("security_score");
    return series;
}

}  // namespace sbx::reports
