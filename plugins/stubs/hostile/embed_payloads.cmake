# Build step of the hostile stub: turns payloads.json into a C++ byte array so the plugin
# carries its data inside the .so and never depends on a path at runtime.
# Usage: cmake -DINPUT=payloads.json -DOUTPUT=embedded_payloads.cpp -P embed_payloads.cmake
# A byte array rather than a raw string literal: -Wpedantic (with -Werror) refuses string
# literals over 64 KiB, and bytes need no delimiter that the data must never contain.
file(READ ${INPUT} hex HEX)
string(LENGTH "${hex}" hex_length)
math(EXPR byte_count "${hex_length} / 2")
# 32 bytes a line keeps the generated file readable in a debugger and a diff.
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){32})" "\\1\n    " bytes "${bytes}")
file(WRITE ${OUTPUT}.tmp
"// Generated from payloads.json by embed_payloads.cmake; do not edit.
// The hostile stub's built-in payload catalogue as bytes inside the plugin.
#include \"embedded_payloads.hpp\"

namespace sbx_hostile {
namespace {
const unsigned char kBytes[${byte_count} + 1] = {
    ${bytes}0x00};
}  // namespace

std::string_view embedded_payloads() {
    return {reinterpret_cast<const char *>(kBytes), ${byte_count}};
}
}  // namespace sbx_hostile
")
# Only touch the output when it changed, so an unrelated rebuild does not recompile it.
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.tmp)
