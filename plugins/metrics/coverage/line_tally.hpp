// What the `coverage` collector keeps of one cell's runs until the cell ends: the lines the
// runs reached together, and which lines the runs of each input category reached (a hostile
// payload's `format_string`, a misuse's `missing_field`).
#pragma once

#include <map>
#include <nlohmann/json_fwd.hpp>
#include <set>
#include <string>

#include "gcov_data.hpp"

namespace sbx::coverage {

class LineTally {
  public:
    // Adds one run's coverage and the categories its inputs carried (its `input_meta`).
    void add_run(const LineCoverage &run, const nlohmann::json &input_meta);

    [[nodiscard]] const LineCoverage &cell() const { return cell_; }
    [[nodiscard]] const std::map<std::string, std::set<std::string>> &by_category() const {
        return by_category_;
    }

  private:
    LineCoverage cell_;
    std::map<std::string, std::set<std::string>> by_category_;
};

// The categories of a run's input_meta ({strategy: {input: {category, ...}}}), as metric
// name parts: lowercase letters, digits and '_'.
std::set<std::string> input_categories(const nlohmann::json &input_meta);

// How many of `lines` are not in `known`.
size_t count_new(const std::set<std::string> &lines, const std::set<std::string> &known);

}  // namespace sbx::coverage
