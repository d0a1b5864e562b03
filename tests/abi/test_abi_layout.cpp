// The ABI's layout is frozen: these numbers may only grow at the end of a struct. If one
// of them changes, the change is an ABI break and needs a new interface id or major.
#include <gtest/gtest.h>
#include <sbx/plugin.h>
#include <sbx/plugin.hpp>

#include <cstddef>
#include <type_traits>

extern "C" int sbx_header_compiles_as_c(void);

static_assert(std::is_standard_layout_v<sbx_plugin_entry>);
static_assert(std::is_standard_layout_v<sbx_descriptor>);
static_assert(std::is_standard_layout_v<sbx_host>);
static_assert(sizeof(sbx_version) == 8);
static_assert(offsetof(sbx_plugin_entry, abi) == 4);
static_assert(offsetof(sbx_plugin_entry, descriptor) == 16);
static_assert(offsetof(sbx_plugin_entry, get_interface) == 64);
static_assert(sizeof(sbx_plugin_entry) == 72);
static_assert(offsetof(sbx_descriptor, id) == 8);
static_assert(offsetof(sbx_descriptor, config_schema) == 72);
// ABI 1.2 appended `active_by_default`.
static_assert(offsetof(sbx_descriptor, active_by_default) == 80);
static_assert(sizeof(sbx_descriptor) == 88);
static_assert(offsetof(sbx_host, ctx) == 16);
static_assert(offsetof(sbx_host, get_service) == 48);
static_assert(sizeof(sbx_host) == 56);
static_assert(sizeof(sbx_sink) == 24);
// ABI 1.1 appended `sweep`; `run` stays where 1.0 put it.
static_assert(offsetof(sbx_executor_v1, run) == 8);
static_assert(offsetof(sbx_executor_v1, sweep) == 16);
static_assert(sizeof(sbx_executor_v1) == 24);
// ABI 1.3 appended `tally`; prepare, teardown and sweep stay where 1.0 put them.
static_assert(offsetof(sbx_injector_v1, prepare) == 8);
static_assert(offsetof(sbx_injector_v1, sweep) == 24);
static_assert(offsetof(sbx_injector_v1, tally) == 32);
static_assert(sizeof(sbx_injector_v1) == 40);
static_assert(sizeof(sbx_stub_v1) == 16);
static_assert(sizeof(sbx_metrics_v1) == 16);
static_assert(sizeof(sbx_predictor_v1) == 16);

TEST(AbiHeader, CompilesAsCAndCxx) {
    EXPECT_EQ(sbx_header_compiles_as_c(), SBX_ABI_MAJOR);
}

TEST(AbiHeader, StatusCodesAreStable) {
    EXPECT_EQ(SBX_OK, 0);
    EXPECT_EQ(SBX_ERROR, 1);
    EXPECT_EQ(SBX_TIMEOUT, 2);
    EXPECT_EQ(SBX_UNSUPPORTED, 3);
    EXPECT_EQ(SBX_CANCELLED, 4);
    EXPECT_EQ(SBX_INVALID, 5);
}
