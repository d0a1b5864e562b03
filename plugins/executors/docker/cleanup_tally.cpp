// A delta is reported once: take() hands it over and starts again from zero.
#include "cleanup_tally.hpp"

namespace sbx::docker {

void CleanupTally::add(const std::string &name, double amount) {
    std::lock_guard<std::mutex> guard(mutex_);
    pending_[name] += amount;
}

void CleanupTally::set(const std::string &name, double value) {
    std::lock_guard<std::mutex> guard(mutex_);
    pending_[name] = value;
}

nlohmann::json CleanupTally::take() {
    std::lock_guard<std::mutex> guard(mutex_);
    nlohmann::json taken = nlohmann::json::object();
    for (const auto &[name, value] : pending_) {
        taken[name] = value;
    }
    pending_.clear();
    return taken;
}

}  // namespace sbx::docker
