// The folder one guest boot works in ("overlay", as the seed calls it): the 9p share, the
// console log, the control socket and, with a disk image, the qcow2 overlay over it. Each is
// recorded in the active-overlays file (SANDBOX_ACTIVE_OVERLAYS) with its owner host and
// QEMU pid, so a crashed host's guests and folders are found and removed by sweep().
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "config.hpp"

namespace sbx::qemu {

// Where overlays and their two record files live for a state folder.
struct OverlayPlaces {
    std::string root;         // <overlay_root>, else <state_dir>/qemu
    std::string active_file;  // SANDBOX_ACTIVE_OVERLAYS, else <root>/active_overlays.json
    std::string failed_file;  // SANDBOX_FAILED_OVERLAYS, else <root>/failed_overlays.json
};
OverlayPlaces overlay_places(const ExecutorConfig &config, const std::string &state_dir);

// Counters of what cleanup did, named as the metrics exporter knows them.
using CleanupCounters = std::map<std::string, double>;

class OverlayDir {
  public:
    // Makes and records a fresh folder. Over max_overlay_count, dead hosts' oldest overlays
    // are purged first (counted in `counters`). Throws std::runtime_error when the folder
    // cannot be made.
    OverlayDir(const OverlayPlaces &places, const ExecutorConfig &config,
               CleanupCounters &counters);
    // Unrecords and removes the folder; one that cannot be removed is recorded in the
    // failed-overlays file for the next purge.
    ~OverlayDir();
    OverlayDir(const OverlayDir &) = delete;
    OverlayDir &operator=(const OverlayDir &) = delete;

    [[nodiscard]] const std::string &path() const { return path_; }
    [[nodiscard]] std::string share() const { return path_ + "/share"; }
    // Records the QEMU process that uses the folder, for sweep() to stop.
    void record_vm(pid_t pid) const;

  private:
    OverlayPlaces places_;
    std::string path_;
};

// What a sweep found: folders removed (or that would be, with dry_run) and QEMU processes
// stopped, and the counters (stale_vms_removed, cleanup_failures).
struct OverlaySweep {
    std::vector<std::string> removed;
    CleanupCounters counters;
};

// Removes overlays whose owner host is dead (recorded, or known by their owner.json), folders
// with no owner record older than `max_age_s`, and retries the failed-overlays file. Stops each
// one's QEMU process first, after checking by its command line that it is the one that used the
// folder.
OverlaySweep sweep_overlays(const OverlayPlaces &places, std::uint64_t max_age_s, bool dry_run);

}  // namespace sbx::qemu
