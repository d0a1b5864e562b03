// `{{input.NAME}}` templates in argv, stdin, env and files: replaced by the input set's
// value — strings as they are, `$bytes` objects as their raw bytes, everything else as
// compact JSON (see input_bytes.hpp); a slot the set lacks (or holds null) as "". The text
// may hold any bytes: not valid UTF-8, NULs.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sbx::engine {

// `text` with every template expanded; a slot the set lacks, or holds null, expands to "".
std::string expand_template(const std::string &text, const nlohmann::json &inputs);

// The argv items of one `run` item. An item that is exactly `{{input.NAME}}` is an
// argument the input set controls: none when the set lacks NAME or it is null (an omitted
// argument), one per element when `is_list(NAME)` and the value is an array (a list slot
// spread: strings as they are, other elements as compact JSON); any other item gives the
// one item expand_template gives.
std::vector<std::string> expand_run_item(const std::string &item, const nlohmann::json &inputs,
                                         const std::function<bool(const std::string &)> &is_list);

}  // namespace sbx::engine
