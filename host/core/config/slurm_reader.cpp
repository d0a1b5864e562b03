// `slurm:`: how `--on slurm` submits a matrix.
//   slurm:
//     partition: batch           # sbatch --partition ("" or left out: the default one)
//     account: lab               # sbatch --account
//     time_limit: "30:00"        # sbatch --time of each array task
//     workers_per_task: 4        # runs at once in each task (--cpus-per-task)
//     shards: 0                  # array tasks; 0: one per CPU of the partition
//     max_running: 0             # array tasks at once (--array=0-N%M); 0: no throttle
//     resubmits: 2               # a lost task's runs are submitted again this often
//     sbatch_options: [--qos=short]
//     shared_dir: /shared/sbx    # seen by every node; default <data_dir>/slurm
//     poll_interval_s: 0.5       # how often squeue is asked while the array runs
#include "config/section_readers.hpp"
#include "config/setting_values.hpp"

namespace sbx::config {
namespace {

int read_bounded(const YamlReader &reader, const Field &field, int low, int high,
                 const std::string &example) {
    const int64_t value = reader.integer(field, example);
    if (value < low || value > high) {
        reader.fail(reader.where(field),
                    "slurm." + field.key + " must be a whole number from " + std::to_string(low) +
                        " to " + std::to_string(high),
                    "write e.g. " + example);
    }
    return static_cast<int>(value);
}

// Slurm's own syntax for a time limit: minutes, M:S, H:M:S, D-H, D-H:M, D-H:M:S, or
// "infinite"/"unlimited". Checked here so a typo is exit 2, not a refused submission.
bool is_slurm_time(const std::string &text) {
    if (text == "infinite" || text == "unlimited" || text == "UNLIMITED") {
        return true;
    }
    if (text.empty() || text.size() > 20) {
        return false;
    }
    int colons = 0;
    int dashes = 0;
    bool digit_before = false;
    for (const char c : text) {
        if (c >= '0' && c <= '9') {
            digit_before = true;
        } else if ((c == ':' || c == '-') && digit_before) {
            (c == ':' ? colons : dashes) += 1;
            digit_before = false;
        } else {
            return false;
        }
    }
    return digit_before && dashes <= 1 && colons <= 2;
}

}  // namespace

void read_slurm(const YamlReader &reader, const Field &field, Settings &settings) {
    auto &out = settings.slurm;
    out.where = reader.where(field);
    const std::string example = "slurm: {partition: batch, time_limit: \"30:00\"}";
    for (const auto &entry : reader.fields(
             field,
             {"partition", "account", "time_limit", "workers_per_task", "shards", "max_running",
              "resubmits", "sbatch_options", "shared_dir", "poll_interval_s"},
             "slurm", example)) {
        if (entry.key == "partition") {
            out.partition = reader.text(entry, "partition: batch");
        } else if (entry.key == "account") {
            out.account = reader.text(entry, "account: lab");
        } else if (entry.key == "time_limit") {
            out.time_limit = reader.text(entry, "time_limit: \"30:00\"");
            if (!out.time_limit.empty() && !is_slurm_time(out.time_limit)) {
                reader.fail(reader.where(entry),
                            "slurm.time_limit '" + out.time_limit + "' is not a Slurm time",
                            "write minutes (30), \"M:S\", \"H:M:S\", \"D-H:M:S\" or unlimited");
            }
        } else if (entry.key == "workers_per_task") {
            out.workers_per_task = read_bounded(reader, entry, 1, static_cast<int>(kMaxWorkers),
                                                "workers_per_task: 4");
        } else if (entry.key == "shards") {
            out.shards = read_bounded(reader, entry, 0, 100000, "shards: 16 (0: one per CPU)");
        } else if (entry.key == "max_running") {
            out.max_running = read_bounded(reader, entry, 0, 100000, "max_running: 100");
        } else if (entry.key == "resubmits") {
            out.resubmits = read_bounded(reader, entry, 0, 100, "resubmits: 2");
        } else if (entry.key == "sbatch_options") {
            out.sbatch_options = reader.text_list(entry, "sbatch_options: [--qos=short]");
            for (const auto &option : out.sbatch_options) {
                if (option.rfind("-", 0) != 0) {
                    reader.fail(reader.where(entry),
                                "slurm.sbatch_options item '" + option + "' is not an option",
                                "write each as one word with its value: --qos=short");
                }
            }
        } else if (entry.key == "shared_dir") {
            out.shared_dir = reader.text(entry, "shared_dir: /shared/sandbox-runner");
        } else {
            const double seconds = reader.number(entry, "poll_interval_s: 0.5");
            if (!(seconds >= 0.05 && seconds <= 600)) {
                reader.fail(reader.where(entry),
                            "slurm.poll_interval_s must be from 0.05 to 600 seconds",
                            "write e.g. poll_interval_s: 0.5");
            }
            out.poll_interval_s = seconds;
        }
    }
}

}  // namespace sbx::config
