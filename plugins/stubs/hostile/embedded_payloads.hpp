// The hostile stub's built-in catalogue: the bytes of payloads.json, compiled into the .so
// by embed_payloads.cmake so the plugin never depends on a path at runtime.
#pragma once

#include <string_view>

namespace sbx_hostile {

// The whole JSON document, UTF-8; valid for the life of the process.
std::string_view embedded_payloads();

}  // namespace sbx_hostile
