/* The ABI header compiles as C11 on its own, with layout checks a C compiler can do. */
#include <sbx/plugin.h>

#include <stddef.h>

_Static_assert(offsetof(sbx_plugin_entry, struct_size) == 0, "struct_size comes first");
_Static_assert(offsetof(sbx_descriptor, struct_size) == 0, "struct_size comes first");
_Static_assert(offsetof(sbx_host, struct_size) == 0, "struct_size comes first");
_Static_assert(sizeof(sbx_status) == 4, "sbx_status is a fixed 32-bit integer");

int sbx_header_compiles_as_c(void) { return SBX_ABI_MAJOR; }
