// The run spec's optional `raw` field (docs/abi.md): the exact bytes of the argv items,
// environment values, stdin, file contents and file paths whose text is not valid UTF-8,
// which JSON cannot carry. The plain field holds their stand-in (each invalid byte U+FFFD).
#pragma once

#include <nlohmann/json.hpp>

#include "run_spec.hpp"

namespace sbx::support {

// Puts the raw bytes of `spec` into `command` (read from the same spec's plain fields).
// An entry applies while its stand-in is still the plain field's text; one that is not (an
// injector rewrote the field after the host made it) is left out, and the plain text wins.
// Throws sbx::Error(SBX_INVALID) naming the entry when it is not base64 or names no field.
void apply_raw_fields(const nlohmann::json &spec, CommandSpec &command);

}  // namespace sbx::support
