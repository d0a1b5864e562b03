// tools/bench/slurm-merge helper: the merge of one shard store into a session, as the
// submitting host of `--on slurm` does it (cluster::merge_shard), timed. Merges SHARD into
// a new session of a fresh OUT/metrics.db twice: first every run is new, then every run
// is there already (a shard merged again, or a resubmitted task's runs). With --old-index
// the target has the schema-8 index instead (runs_by_session, without the repetition).
// Prints "merge new <runs> <seconds> <runs/s>" and "merge again <skipped> <seconds> <runs/s>".
// Usage: sbx-bench-shard-merge SHARD_DB OUT_DIR [--old-index]
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "cluster/shard_merge.hpp"
#include "store/store.hpp"

namespace {

using Clock = std::chrono::steady_clock;

void report(const char *what, int runs, Clock::duration span) {
    const double seconds = std::chrono::duration<double>(span).count();
    std::printf("merge %s %d %.3f %.0f\n", what, runs, seconds, seconds > 0 ? runs / seconds : 0);
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: sbx-bench-shard-merge SHARD_DB OUT_DIR [--old-index]\n");
        return 2;
    }
    const bool old_index = argc > 3 && std::strcmp(argv[3], "--old-index") == 0;
    sbx::store::Store store(std::filesystem::path(argv[2]) / "metrics.db");
    if (old_index) {
        store.connection().exec(
            "DROP INDEX runs_by_place; CREATE INDEX runs_by_session ON runs(session_id, "
            "workflow, preset_id, flag);");
    }
    const int64_t session = store.begin_session("bench merge", "bench", 1);
    auto started = Clock::now();
    const auto first = sbx::cluster::merge_shard(store, session, argv[1]);
    report("new", first.merged, Clock::now() - started);
    started = Clock::now();
    const auto again = sbx::cluster::merge_shard(store, session, argv[1]);
    report("again", again.skipped, Clock::now() - started);
    return first.merged > 0 && again.merged == 0 ? 0 : 1;
}
