// Tests of plugins/support/plain_values.hpp through the real normal.so (the strategy
// that sends plain values as they are): every min/max combination gives a number of the
// slot's type inside its bounds, and min above max is refused by name.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "plugins/plugin.hpp"

namespace sbx::stubs_test {
namespace {

using nlohmann::json;

std::unique_ptr<plugins::Instance> normal_stub() {
    static const std::shared_ptr<plugins::Plugin> plugin = plugins::load_plugin(SBX_NORMAL_PLUGIN);
    return plugin->create(json::object());
}

// The plain value the normal stub gives one slot declared as `slot`.
json plain(const json &slot) {
    const json request = {{"slots", {{"n", slot}}}, {"count", 1}, {"seed", 1}};
    const json answer = json::parse(normal_stub()->generate(request.dump()));
    return answer.at("input_sets").at(0).at("n");
}

// Bounds as the host sends them: doubles, also for int slots.
json int_slot() {
    return {{"type", "int"}, {"required", true}};
}

json float_slot() {
    return {{"type", "float"}, {"required", true}};
}

json with(json slot, const char *key, double value) {
    slot[key] = value;
    return slot;
}

void expect_int(const json &value, int64_t expected) {
    EXPECT_TRUE(value.is_number_integer()) << value.dump();
    EXPECT_EQ(value.dump(), std::to_string(expected));
}

void expect_float(const json &value, double expected) {
    EXPECT_TRUE(value.is_number_float()) << value.dump();
    EXPECT_EQ(value.get<double>(), expected);
}

TEST(PlainValues, IntWithNeitherBoundIsZero) {
    expect_int(plain(int_slot()), 0);
}

TEST(PlainValues, IntWithOnlyMinIsThatMinAsAnInteger) {
    expect_int(plain(with(int_slot(), "min", 5.0)), 5);  // was 5.0, a float
    expect_int(plain(with(int_slot(), "min", -7.0)), -7);
    expect_int(plain(with(int_slot(), "min", 2.5)), 3);  // rounded inwards
    expect_int(plain(with(int_slot(), "min", -2.5)), -2);
}

TEST(PlainValues, IntWithOnlyMaxStaysAtOrBelowIt) {
    expect_int(plain(with(int_slot(), "max", 10.0)), 0);
    expect_int(plain(with(int_slot(), "max", -3.0)), -3);  // was 0, above the max
    expect_int(plain(with(int_slot(), "max", -3.5)), -4);
}

TEST(PlainValues, IntWithBothBoundsIsInside) {
    expect_int(plain(with(with(int_slot(), "min", 1.0), "max", 10.0)), 1);
    expect_int(plain(with(with(int_slot(), "min", -10.0), "max", -5.0)), -10);
    expect_int(plain(with(with(int_slot(), "min", 0.5), "max", 1.5)), 1);
    expect_int(plain(with(with(int_slot(), "min", 4.0), "max", 4.0)), 4);  // min == max
}

TEST(PlainValues, IntBoundsPast64BitsAreClamped) {
    expect_int(plain(with(int_slot(), "min", -1e300)), INT64_MIN);
    expect_int(plain(with(int_slot(), "max", 1e300)), 0);
}

TEST(PlainValues, IntBoundsGivenAsIntegersWork) {
    json slot = int_slot();
    slot["min"] = 3;
    slot["max"] = 9;
    expect_int(plain(slot), 3);
}

TEST(PlainValues, FloatInEveryCombination) {
    expect_float(plain(float_slot()), 0.0);
    expect_float(plain(with(float_slot(), "min", 2.5)), 2.5);
    expect_float(plain(with(float_slot(), "min", -2.5)), -2.5);
    expect_float(plain(with(float_slot(), "max", 7.0)), 0.0);
    expect_float(plain(with(float_slot(), "max", -0.25)), -0.25);
    expect_float(plain(with(with(float_slot(), "min", -3.0), "max", -1.0)), -3.0);
    expect_float(plain(with(with(float_slot(), "min", 1.5), "max", 1.5)), 1.5);
}

// The message names the strategy, the slot and both bounds, and says what to write.
void expect_refused(const json &slot, const std::string &needle) {
    try {
        plain(slot);
        ADD_FAILURE() << "accepted " << slot.dump();
    } catch (const std::exception &e) {
        EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("normal: slot 'n'"), std::string::npos) << e.what();
    }
}

TEST(PlainValues, MinAboveMaxIsRefused) {
    expect_refused(with(with(int_slot(), "min", 5.0), "max", 3.0),
                   "min 5.0 is above max 3.0; write a max that is at least min");
    expect_refused(with(with(float_slot(), "min", -1.0), "max", -2.0),
                   "min -1.0 is above max -2.0");
}

TEST(PlainValues, IntRangeWithoutAWholeNumberIsRefused) {
    expect_refused(with(with(int_slot(), "min", 0.25), "max", 0.75), "no 64-bit whole number");
    expect_refused(with(int_slot(), "min", 1e300), "no 64-bit whole number");
}

TEST(PlainValues, BoundsThatAreNotNumbersAreRefused) {
    json slot = int_slot();
    slot["min"] = "low";
    expect_refused(slot, "min must be a number");
}

TEST(PlainValues, ExampleAndDefaultStillComeFirst) {
    json slot = with(with(int_slot(), "min", 5.0), "max", 3.0);
    slot["example"] = 4;
    EXPECT_EQ(plain(slot), 4);  // the normal stub sends the example; no bounds are read
}

TEST(PlainValues, ListIsTwoPlainArguments) {
    EXPECT_EQ(plain({{"type", "list"}, {"required", true}}), json({"a", "b"}));
    EXPECT_EQ(plain({{"type", "list"}, {"example", {"x"}}}), json({"x"}));
}

}  // namespace
}  // namespace sbx::stubs_test
