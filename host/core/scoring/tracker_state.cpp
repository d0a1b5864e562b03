// Saving and restoring the tracker: the whole state as JSON, and the converged modules as
// a flags file that later runs read to skip them.
#include "scoring/tracker.hpp"

#include "util/atomic_file.hpp"
#include "util/errors.hpp"
#include "util/input_file.hpp"
#include "util/json_input.hpp"

namespace sbx::scoring {

nlohmann::json Tracker::to_json() const {
    nlohmann::json modules = nlohmann::json::object();
    for (const auto &[name, history] : modules_) {
        modules[name] = {{"roi_deltas", history.roi_deltas},
                         {"entropy_deltas", history.entropy_deltas},
                         {"raroi", history.raroi},
                         {"streak", history.streak}};
    }
    return {{"deltas", deltas_},
            {"metrics_history", metrics_history_},
            {"modules", modules},
            {"converged", converged_}};
}

Tracker Tracker::from_json(const nlohmann::json &state, TrackerSettings settings) {
    Tracker tracker(settings);
    try {
        tracker.deltas_ = state.at("deltas").get<std::vector<double>>();
        tracker.metrics_history_ =
            state.at("metrics_history").get<std::vector<std::map<std::string, double>>>();
        for (const auto &[name, saved] : state.at("modules").items()) {
            ModuleHistory &history = tracker.modules_[name];
            history.roi_deltas = saved.at("roi_deltas").get<std::vector<double>>();
            history.entropy_deltas = saved.at("entropy_deltas").get<std::vector<double>>();
            history.raroi = saved.at("raroi").get<std::vector<double>>();
            history.streak = saved.at("streak").get<int>();
        }
        tracker.converged_ = state.at("converged").get<std::set<std::string>>();
    } catch (const nlohmann::json::exception &error) {
        throw InputError(std::string("the saved tracker state is not valid (") + error.what() +
                         "); delete the tracker state file to start tracking afresh");
    }
    return tracker;
}

void Tracker::save_flags(const std::filesystem::path &path) const {
    write_file_atomically(path, nlohmann::json{{"converged", converged_}}.dump(2) + "\n");
}

void Tracker::load_flags(const std::filesystem::path &path) {
    std::error_code ignored;
    if (!std::filesystem::exists(path, ignored)) {
        return;
    }
    const std::string fix =
        "write {\"converged\": [\"module\", ...]} or delete the file to let the tracker "
        "recompute convergence";
    const std::string text = read_input_file(path, "the flags file", fix);
    const nlohmann::json flags = parse_json_input(text, path.string(), "the flags file", fix);
    const auto converged = flags.is_object() ? flags.find("converged") : flags.end();
    if (!flags.is_object() || converged == flags.end() || !converged->is_array()) {
        throw InputError(path.string() +
                         ": a flags file must be an object with a \"converged\" list; " + fix);
    }
    for (const nlohmann::json &module : *converged) {
        if (!module.is_string()) {
            throw InputError(path.string() +
                             ": the \"converged\" list must hold module names, not " +
                             module.dump() + "; " + fix);
        }
        converged_.insert(module.get<std::string>());
    }
}

}  // namespace sbx::scoring
