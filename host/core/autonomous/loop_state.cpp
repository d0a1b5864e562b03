#include "autonomous/loop_state.hpp"

#include "util/atomic_file.hpp"
#include "util/errors.hpp"
#include "util/input_file.hpp"
#include "util/json_input.hpp"

namespace sbx::autonomous {

using nlohmann::json;

namespace {

constexpr const char *kFormat = "sandbox-runner/autonomous_run/1";

json to_json(const IterationRecord &record) {
    json modules = json::object();
    for (const auto &[name, module] : record.modules) {
        modules[name] = {{"roi", module.roi},           {"entropy", module.entropy},
                         {"runs", module.runs},         {"passed", module.passed},
                         {"forecast", module.forecast}, {"preset_roi", module.preset_roi}};
    }
    json preset_results = json::object();
    const auto optional = [](const std::optional<double> &value) {
        return value ? json(*value) : json();
    };
    for (const auto &[name, result] : record.preset_results) {
        preset_results[name] = {{"roi", result.roi},
                                {"synergy_roi", optional(result.synergy_roi)},
                                {"security_score", optional(result.security_score)}};
    }
    return {{"iteration", record.iteration},
            {"session", record.session},
            {"seed", record.seed},
            {"presets", record.presets},
            {"modules", modules},
            {"synergy_roi", record.synergy_roi ? json(*record.synergy_roi) : json()},
            {"synergy_forecast", record.synergy_forecast},
            {"finished_at", record.finished_at},
            {"preset_bodies", record.preset_bodies},
            {"preset_results", preset_results},
            {"adaptation", record.adaptation}};
}

IterationRecord record_from_json(const json &entry) {
    IterationRecord record;
    record.iteration = entry.at("iteration").get<int>();
    record.session = entry.at("session").get<int64_t>();
    record.seed = entry.at("seed").get<int64_t>();
    record.presets = entry.at("presets").get<std::vector<std::string>>();
    for (const auto &[name, module] : entry.at("modules").items()) {
        record.modules[name] = {module.at("roi").get<double>(),
                                module.at("entropy").get<double>(),
                                module.at("runs").get<int>(),
                                module.at("passed").get<int>(),
                                module.value("forecast", json()),
                                module.value("preset_roi", std::map<std::string, double>{})};
    }
    // Loops recorded before presets were adapted have none of these.
    record.preset_bodies = entry.value("preset_bodies", json::array());
    record.adaptation = entry.value("adaptation", json::array());
    const json preset_results = entry.value("preset_results", json::object());
    for (const auto &[name, result] : preset_results.items()) {
        auto &kept = record.preset_results[name];
        kept.roi = result.at("roi").get<double>();
        for (const auto &[key, field] : {std::pair{"synergy_roi", &kept.synergy_roi},
                                         {"security_score", &kept.security_score}}) {
            if (result.at(key).is_number()) {
                *field = result.at(key).get<double>();
            }
        }
    }
    record.finished_at = entry.value("finished_at", "");
    record.synergy_forecast = entry.value("synergy_forecast", json());
    if (entry.at("synergy_roi").is_number()) {
        record.synergy_roi = entry.at("synergy_roi").get<double>();
    }
    return record;
}

}  // namespace

std::filesystem::path autonomous_state_path(const std::filesystem::path &data_dir) {
    return data_dir / "autonomous_run.json";
}

std::string current_loop_command(const std::string &recorded) {
    return recorded == "full-autonomous-run" ? "run-autonomous" : recorded;
}

std::optional<AutonomousState> load_autonomous_state(const std::filesystem::path &path) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        return std::nullopt;
    }
    const std::string fix = "move it away to start a new loop";
    const json document = parse_json_input(read_input_file(path, "the autonomous loop state", fix),
                                           path.string(), "the autonomous loop state", fix);
    try {
        if (document.at("format") != kFormat) {
            throw InputError(path.string() + ": not a sandbox-runner autonomous loop state; " +
                             fix);
        }
        AutonomousState state;
        state.command = current_loop_command(document.at("command").get<std::string>());
        state.options = document.at("options");
        state.seed = document.at("seed").get<int64_t>();
        state.elapsed_s = document.at("elapsed_s").get<double>();
        for (const auto &entry : document.at("iterations")) {
            state.iterations.push_back(record_from_json(entry));
        }
        const auto &in_progress = document.at("in_progress");
        if (in_progress.is_object()) {
            state.in_progress = {in_progress.at("iteration").get<int>(),
                                 in_progress.at("session").get<int64_t>()};
        }
        state.stopped = document.at("stopped").get<std::string>();
        state.next_presets = document.value("next_presets", json());
        return state;
    } catch (const json::exception &e) {
        throw InputError(path.string() + ": a damaged autonomous loop state (" + e.what() + "); " +
                         fix);
    }
}

void save_autonomous_state(const std::filesystem::path &path, const AutonomousState &state) {
    json iterations = json::array();
    for (const auto &record : state.iterations) {
        iterations.push_back(to_json(record));
    }
    const json document{
        {"format", kFormat},
        {"command", state.command},
        {"options", state.options},
        {"seed", state.seed},
        {"elapsed_s", state.elapsed_s},
        {"iterations", iterations},
        {"in_progress", state.in_progress ? json{{"iteration", state.in_progress->first},
                                                 {"session", state.in_progress->second}}
                                          : json()},
        {"stopped", state.stopped},
        {"next_presets", state.next_presets}};
    write_file_atomically(path, document.dump(2) + "\n");
}

std::vector<double> module_series(const AutonomousState &state, const std::string &module,
                                  double ModuleIteration::*field) {
    std::vector<double> series;
    for (const auto &record : state.iterations) {
        const auto found = record.modules.find(module);
        if (found != record.modules.end()) {
            series.push_back(found->second.*field);
        }
    }
    return series;
}

std::vector<double> synergy_series(const AutonomousState &state) {
    std::vector<double> series;
    for (const auto &record : state.iterations) {
        if (record.synergy_roi) {
            series.push_back(*record.synergy_roi);
        }
    }
    return series;
}

std::vector<std::string> series_times(const AutonomousState &state, const std::string &module) {
    std::vector<std::string> times;
    for (const auto &record : state.iterations) {
        if (module.empty() ? record.synergy_roi.has_value() : record.modules.count(module) != 0) {
            times.push_back(record.finished_at);
        }
    }
    return times;
}

presets::ScenarioSeries preset_series(const AutonomousState &state, const std::string &preset) {
    presets::ScenarioSeries series;
    for (const auto &record : state.iterations) {
        const auto found = record.preset_results.find(preset);
        if (found == record.preset_results.end()) {
            continue;
        }
        series.roi.push_back(found->second.roi);
        if (found->second.synergy_roi) {
            series.synergy_roi.push_back(*found->second.synergy_roi);
        }
        if (found->second.security_score) {
            series.security_score.push_back(*found->second.security_score);
        }
    }
    return series;
}

scoring::Tracker tracker_from_iterations(const AutonomousState &state,
                                         const scoring::TrackerSettings &settings) {
    scoring::Tracker tracker(settings);
    std::map<std::string, ModuleIteration> previous;
    std::map<std::string, std::map<std::string, double>> last_preset_roi;  // module -> preset
    for (const auto &record : state.iterations) {
        for (const auto &[name, module] : record.modules) {
            const auto before = previous.find(name);
            const double entropy_before = before == previous.end() ? 0.0 : before->second.entropy;
            double entropy_delta = module.entropy - entropy_before;
            if (module.preset_roi.empty()) {
                const double roi_before = before == previous.end() ? 0.0 : before->second.roi;
                tracker.update(roi_before, module.roi, {name}, {});
                tracker.update_entropy(name, entropy_delta);
            }
            auto &seen = last_preset_roi[name];
            for (const auto &[preset, roi] : module.preset_roi) {
                const auto earlier = seen.find(preset);
                if (earlier != seen.end()) {
                    tracker.update(earlier->second, roi, {name}, {});
                    tracker.update_entropy(name, entropy_delta);
                    entropy_delta = 0;
                }
                seen[preset] = roi;
            }
            tracker.record_raroi(name, module.roi);
            previous[name] = module;
        }
    }
    return tracker;
}

}  // namespace sbx::autonomous
