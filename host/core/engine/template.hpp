// `{{input.NAME}}` templates in argv, stdin, env and files: replaced by the input set's
// value — strings as they are, `$bytes` objects as their raw bytes, everything else as
// compact JSON (see input_bytes.hpp). The text may hold any bytes: not valid UTF-8, NULs.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace sbx::engine {

// Throws InputError when a template names a slot missing from `inputs`.
std::string expand_template(const std::string &text, const nlohmann::json &inputs);

}  // namespace sbx::engine
