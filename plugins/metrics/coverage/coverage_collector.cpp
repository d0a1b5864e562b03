// The `coverage` collector: line coverage of targets built for it (gcc or clang
// `--coverage`), from the gcov data `coverage_capture` keeps for each step. Per run:
// `line_coverage`. Per cell: `flexibility` (the share of lines the cell's runs reached
// together), `adaptability` (the share of those the baseline cell never reached), and
// `new_lines` and `new_lines_<category>` (which input categories, such as hostile payloads,
// drove the target into code the baseline never ran). Formulas: docs/semantics.md.
#include <sbx/plugin.hpp>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "gcov_data.hpp"
#include "line_tally.hpp"
#include "python_data.hpp"
#include "support/cell_ledger.hpp"
#include "support/system_tool.hpp"

namespace sbx::coverage {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// The open cells and, per subject, the lines the baseline cell reached.
support::CellLedger<LineTally, std::set<std::string>> &ledger() {
    static support::CellLedger<LineTally, std::set<std::string>> cells;
    return cells;
}

// A count: the cell's value is the sum over its runs, not their mean.
json unreadable(const LineCoverage &run) {
    return {{"value", run.unreadable}, {"aggregate", "sum"}};
}

double share(size_t part, size_t whole) {
    return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
}

// Removes a kept folder when the reading of it ends, also by an exception.
struct RemovedAtEnd {
    fs::path folder;
    RemovedAtEnd(const RemovedAtEnd &) = delete;
    RemovedAtEnd &operator=(const RemovedAtEnd &) = delete;
    RemovedAtEnd(RemovedAtEnd &&) = delete;
    RemovedAtEnd &operator=(RemovedAtEnd &&) = delete;
    ~RemovedAtEnd() {
        std::error_code ignored;
        fs::remove_all(folder, ignored);
    }
};

// An analyzer's command, its program found in PATH the first time data needs it. A missing
// one is said once and leaves that kind of data unread: a machine with only C targets needs
// no coverage.py, one with only Python targets no gcc.
class Tool {
  public:
    Tool() = default;
    Tool(std::vector<std::string> command, std::string package)
        : command_(std::move(command)), package_(std::move(package)) {}

    const std::vector<std::string> *get() {
        if (!looked_up_) {
            looked_up_ = true;
            try {
                if (command_.front().find('/') == std::string::npos) {
                    command_.front() = support::find_tool(command_.front(), package_);
                }
                found_ = true;
            } catch (const Error &e) {
                host::log(SBX_LOG_WARN,
                          std::string("coverage: ") + e.what() + "; its coverage data is not read");
            }
        }
        return found_ ? &command_ : nullptr;
    }

  private:
    std::vector<std::string> command_;
    std::string package_;
    bool looked_up_ = false;
    bool found_ = false;
};

class CoverageCollector final : public MetricsCollector {
  public:
    static constexpr About about{
        "coverage",
        "Line coverage",
        "1.0.0",
        "Line coverage of targets built with --coverage, from the gcov data the "
        "coverage_capture injector keeps: line_coverage per run; flexibility, adaptability "
        "and new lines per input category per cell.",
        R"json({"type":"object","additionalProperties":false,"properties":{
          "gcov":{"type":"array","minItems":1,"items":{"type":"string","minLength":1},
            "default":["gcov"],
            "description":"the gcov command matching the compiler: [gcov] for gcc (Debian package gcc), [llvm-cov, gcov] for clang (package llvm)"},
          "python_coverage":{"type":"array","minItems":1,"items":{"type":"string","minLength":1},
            "default":["python3-coverage"],
            "description":"the coverage.py command that combines and reports Python data (Debian package python3-coverage)"},
          "baseline":{"type":"string","minLength":1,"default":"normal",
            "description":"the preset whose cell's lines adaptability and new_lines compare with"}}})json",
        "sandbox-runner",
        "https://example.invalid/sandbox-runner",
        "Apache-2.0"};

    explicit CoverageCollector(const std::string &config_json) {
        const json config = json::parse(config_json);
        gcov_ = Tool(config.value("gcov", std::vector<std::string>{"gcov"}), "gcc");
        python_coverage_ =
            Tool(config.value("python_coverage", std::vector<std::string>{"python3-coverage"}),
                 "python3-coverage");
        baseline_ = config.value("baseline", "normal");
    }

    std::string collect(const std::string &request_json) override {
        const json request = json::parse(request_json);
        const std::string phase = request.value("phase", "");
        if (phase == "run") {
            return collect_run(request);
        }
        return phase == "cell" ? collect_cell(request) : "{}";
    }

  private:
    std::string collect_run(const json &request) {
        LineCoverage run;
        bool captured = false;
        for (const auto &step : request.value("steps", json::array())) {
            const json capture =
                step.value("injections", json::object()).value("coverage_capture", json::object());
            const fs::path folder = capture.value("dir", "");
            if (folder.empty()) {
                continue;
            }
            captured = true;
            const RemovedAtEnd read_once{folder};  // nothing is left behind, whatever happens
            if (fs::is_directory(folder)) {
                run.merge(read_gcov_folder(folder, [this] { return gcov_.get(); }));
                run.merge(read_python_folder(folder, [this] { return python_coverage_.get(); }));
            }
        }
        if (!captured || run.instrumented.empty()) {
            return run.unreadable > 0 ? json{{"coverage_unreadable", unreadable(run)}}.dump()
                                      : "{}";
        }
        const json input_meta = request.value("input_meta", json());
        // The lines no earlier run of the cell reached: what makes an input worth mutating
        // further (sandbox-runner explore keeps such inputs in its corpus).
        std::size_t fresh = 0;
        ledger().update(request, [&](LineTally &tally) {
            fresh = count_new(run.reached, tally.cell().reached);
            tally.add_run(run, input_meta);
        });
        return json{{"line_coverage", share(run.reached.size(), run.instrumented.size())},
                    {"lines_reached", run.reached.size()},
                    {"new_lines_in_cell", {{"value", fresh}, {"aggregate", "sum"}}},
                    {"coverage_unreadable", unreadable(run)}}
            .dump();
    }

    std::string collect_cell(const json &request) {
        const LineTally tally = ledger().close(request);
        const LineCoverage &cell = tally.cell();
        if (cell.instrumented.empty()) {
            return "{}";
        }
        if (request.value("scenario", "") == baseline_) {
            ledger().set_baseline(request, cell.reached);
        }
        json answer = {{"flexibility", share(cell.reached.size(), cell.instrumented.size())},
                       {"adaptability", nullptr},
                       {"new_lines", nullptr}};
        if (const auto baseline = ledger().baseline(request)) {
            const size_t fresh = count_new(cell.reached, *baseline);
            answer["new_lines"] = fresh;
            answer["adaptability"] = share(fresh, cell.reached.size());
            for (const auto &[category, lines] : tally.by_category()) {
                answer["new_lines_" + category] = count_new(lines, *baseline);
            }
        }
        return answer.dump();
    }

    Tool gcov_;
    Tool python_coverage_;
    std::string baseline_;
};

}  // namespace
}  // namespace sbx::coverage

SBX_PLUGIN(sbx::coverage::CoverageCollector);
