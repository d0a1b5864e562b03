// Overlay folders: vm-<host pid>-<sequence> under the root, each with owner.json inside (so
// an unrecorded folder is still known as ours) and an entry in the active-overlays file.
#include "overlay_dir.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <thread>

#include <sbx/process_identity.hpp>
#include "guest_tree.hpp"
#include "support/locked_json_file.hpp"

namespace sbx::qemu {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char *kPrefix = "vm-";
constexpr const char *kMarker = "owner.json";

std::int64_t unix_now() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// A field of a record that another version, or a hand, may have written wrongly: 0 then.
template <typename Number>
Number field(const json &entry, const char *key) {
    if (!entry.is_object()) {
        return 0;
    }
    const auto found = entry.find(key);
    return found != entry.end() && found->is_number_integer() ? found->get<Number>() : 0;
}

bool owner_alive(const json &entry) {
    const ProcessIdentity owner{field<pid_t>(entry, "owner_pid"),
                                field<unsigned long long>(entry, "owner_start")};
    return owner.alive();
}

// Only a vm-* folder directly in the overlay root is ever ours to remove.
bool ours(const OverlayPlaces &places, const std::string &folder) {
    const fs::path path(folder);
    return path.parent_path() == fs::path(places.root) &&
           path.filename().string().rfind(kPrefix, 0) == 0;
}

// True when `pid` is a QEMU whose command line names `folder` (so a reused pid is never hit).
bool is_our_vm(long pid, const std::string &folder) {
    if (pid <= 0) {
        return false;
    }
    std::ifstream in("/proc/" + std::to_string(pid) + "/cmdline");
    const std::string cmdline((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
    return cmdline.find(folder + "/") != std::string::npos;
}

void stop_vm(long pid, const std::string &folder) {
    if (!is_our_vm(pid, folder)) {
        return;
    }
    ::kill(static_cast<pid_t>(pid), SIGKILL);
    // Not our child (its host died): wait until the kernel has it gone, briefly.
    for (int tick = 0; tick < 100 && is_our_vm(pid, folder); ++tick) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

void record_failed(const std::string &failed_file, const std::string &folder) {
    support::update_json_file(failed_file, [&](json &failed) {
        failed[folder] = {{"since", unix_now()}};
    });
}

std::atomic<std::uint64_t> next_sequence{0};

}  // namespace

OverlayPlaces overlay_places(const ExecutorConfig &config, const std::string &state_dir) {
    OverlayPlaces places;
    places.root =
        !config.overlay_root.empty()
            ? config.overlay_root
            : fs::absolute(state_dir.empty() ? std::string("sandbox_data/state") : state_dir)
                      .lexically_normal()
                      .string() +
                  "/qemu";
    places.active_file = !config.active_overlays_file.empty()
                             ? config.active_overlays_file
                             : places.root + "/active_overlays.json";
    places.failed_file = !config.failed_overlays_file.empty()
                             ? config.failed_overlays_file
                             : places.root + "/failed_overlays.json";
    return places;
}

OverlayDir::OverlayDir(const OverlayPlaces &places, const ExecutorConfig &config,
                       CleanupCounters &counters)
    : places_(places) {
    const ProcessIdentity self = ProcessIdentity::current();
    std::error_code error;
    fs::create_directories(places.root, error);
    // Made, not found: another host with the same pid (in another PID namespace) sharing the
    // state folder must never share a folder with us.
    bool made = false;
    for (int attempt = 0; attempt < 100 && !made; ++attempt) {
        path_ = places.root + "/" + kPrefix + std::to_string(self.pid) + "-" +
                std::to_string(next_sequence++) + "-" + std::to_string(unix_now());
        made = fs::create_directory(path_, error);
    }
    if (!made) {
        throw std::runtime_error("cannot make an overlay folder in " + places.root + ": " +
                                 error.message());
    }
    // Runs' commands, inputs and outputs are the host user's alone.
    fs::permissions(path_, fs::perms::owner_all, error);
    fs::create_directories(path_ + "/share/jobs", error);
    const json entry{{"owner_pid", self.pid},
                     {"owner_start", self.start_time},
                     {"created", unix_now()},
                     {"vm_pid", 0}};
    std::ofstream(path_ + "/" + kMarker) << entry.dump() << '\n';

    // Over the cap: the oldest overlays of dead hosts go first; a live host's never do.
    std::vector<std::pair<std::int64_t, std::string>> purgeable;
    support::update_json_file(places.active_file, [&](json &active) {
        if (config.max_overlay_count > 0 && active.size() + 1 > config.max_overlay_count) {
            for (const auto &[folder, other] : active.items()) {
                if (!owner_alive(other)) {
                    purgeable.emplace_back(field<std::int64_t>(other, "created"), folder);
                }
            }
            std::sort(purgeable.begin(), purgeable.end());
            const size_t excess = active.size() + 1 - config.max_overlay_count;
            purgeable.resize(std::min(purgeable.size(), excess));
            for (const auto &[created, folder] : purgeable) {
                active.erase(folder);
            }
        }
        active[path_] = entry;
    });
    for (const auto &[created, folder] : purgeable) {
        if (!ours(places, folder)) {
            continue;
        }
        stop_vm(field<long>(support::read_json_file(folder + "/" + kMarker), "vm_pid"), folder);
        if (remove_guest_tree(folder)) {
            counters["stale_vms_removed"] += 1;
        } else {
            counters["cleanup_failures"] += 1;
            record_failed(places.failed_file, folder);
        }
    }
}

OverlayDir::~OverlayDir() {
    // Never throws: a record that cannot be updated now is what sweep() is for.
    try {
        support::update_json_file(places_.active_file, [&](json &active) { active.erase(path_); });
    } catch (const std::exception &) {
    }
    if (!remove_guest_tree(path_)) {
        try {
            record_failed(places_.failed_file, path_);
        } catch (const std::exception &) {
        }
    }
}

void OverlayDir::record_vm(pid_t pid) const {
    support::update_json_file(places_.active_file, [&](json &active) {
        if (active.contains(path_)) {
            active[path_]["vm_pid"] = pid;
        }
    });
    json marker = support::read_json_file(path_ + "/" + kMarker);
    marker["vm_pid"] = pid;
    std::ofstream(path_ + "/" + kMarker) << marker.dump() << '\n';
}

OverlaySweep sweep_overlays(const OverlayPlaces &places, std::uint64_t max_age_s, bool dry_run) {
    OverlaySweep sweep;
    const auto remove = [&](const std::string &folder, long vm_pid, const std::string &why) {
        sweep.removed.push_back("overlay " + folder + " (" + why + ")");
        if (dry_run) {
            return true;
        }
        stop_vm(vm_pid, folder);
        if (remove_guest_tree(folder)) {
            sweep.counters["stale_vms_removed"] += 1;
            return true;
        }
        sweep.counters["cleanup_failures"] += 1;
        record_failed(places.failed_file, folder);
        return false;
    };

    // Recorded overlays of dead hosts.
    std::vector<std::pair<std::string, json>> dead;
    const json recorded = support::read_json_file(places.active_file);
    for (const auto &[folder, entry] : recorded.items()) {
        if (!owner_alive(entry)) {
            dead.emplace_back(folder, entry);
        }
    }
    for (const auto &[folder, entry] : dead) {
        if (ours(places, folder)) {  // a record naming anything else is dropped, not followed
            remove(folder, field<long>(entry, "vm_pid"), "its host is gone");
        }
    }
    if (!dry_run && !dead.empty()) {
        support::update_json_file(places.active_file, [&](json &active) {
            for (const auto &[folder, entry] : dead) {
                active.erase(folder);
            }
        });
    }

    // Unrecorded folders of ours (a host killed between mkdir and record), by their marker.
    const json active = support::read_json_file(places.active_file);
    std::error_code error;
    for (fs::directory_iterator it(places.root, error), end; !error && it != end;
         it.increment(error)) {
        const std::string folder = it->path().string();
        if (it->path().filename().string().rfind(kPrefix, 0) != 0 || active.contains(folder) ||
            std::any_of(dead.begin(), dead.end(),
                        [&](const auto &item) { return item.first == folder; })) {
            continue;
        }
        const json marker = support::read_json_file(folder + "/" + kMarker);
        if (!marker.empty()) {
            if (!owner_alive(marker)) {
                remove(folder, field<long>(marker, "vm_pid"), "unrecorded, its host is gone");
            }
            continue;
        }
        // No marker: a host died between making the folder and writing it. Only its age
        // tells it from one being made right now.
        const auto modified = fs::last_write_time(folder, error);
        const auto age = std::chrono::duration_cast<std::chrono::seconds>(
                             fs::file_time_type::clock::now() - modified)
                             .count();
        if (!error && age >= 0 && static_cast<std::uint64_t>(age) >= max_age_s) {
            remove(folder, 0, "no owner record, older than the overlay max age");
        }
    }

    // Folders an earlier removal failed on.
    const json failed = support::read_json_file(places.failed_file);
    std::vector<std::string> retried;
    for (const auto &[folder, info] : failed.items()) {
        if (!ours(places, folder) || !fs::exists(folder, error)) {
            retried.push_back(folder);
            continue;
        }
        if (dry_run) {
            sweep.removed.push_back("overlay " + folder + " (an earlier removal failed)");
        } else if (remove_guest_tree(folder)) {
            sweep.removed.push_back("overlay " + folder + " (an earlier removal failed)");
            sweep.counters["stale_vms_removed"] += 1;
            retried.push_back(folder);
        }
    }
    if (!dry_run && !retried.empty()) {
        support::update_json_file(places.failed_file, [&](json &file) {
            for (const auto &folder : retried) {
                file.erase(folder);
            }
        });
    }
    return sweep;
}

}  // namespace sbx::qemu
