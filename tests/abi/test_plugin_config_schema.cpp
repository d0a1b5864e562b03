// A plugin's configuration before create(): the schema's defaults filled in, whole floats
// where integers are asked, and schema errors that say what was expected and what was given.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "plugins/schema_defaults.hpp"
#include "plugins/schema_validator.hpp"

namespace {

using nlohmann::json;
using sbx::plugins::subschema_at;
using sbx::plugins::validate_against_schema;
using sbx::plugins::with_schema_defaults;

const json kSchema = json::parse(R"({
  "type": "object",
  "properties": {
    "retries": {"type": "integer", "minimum": 0, "default": 3},
    "alpha": {"type": "number", "default": 0.3},
    "mode": {"enum": ["fast", "slow"], "default": "fast"},
    "limits": {"type": "object", "default": {},
               "properties": {"bytes": {"type": "integer", "default": 4096}}},
    "ports": {"type": "array", "items": {"type": "integer"}},
    "label": {"type": "string"}
  },
  "additionalProperties": false
})");

TEST(PluginConfigSchema, DefaultsFillWhatTheSettingsLeaveOutAtEveryDepth) {
    const json filled = with_schema_defaults(kSchema, json::object());
    EXPECT_EQ(filled, json::parse(R"({"retries": 3, "alpha": 0.3, "mode": "fast",
                                      "limits": {"bytes": 4096}})"));
    // What is written wins; a nested object written in part gets the rest.
    const json written =
        with_schema_defaults(kSchema, json::parse(R"({"retries": 0, "limits": {}, "label": "x"})"));
    EXPECT_EQ(written["retries"], 0);
    EXPECT_EQ(written["limits"], json::parse(R"({"bytes": 4096})"));
    EXPECT_EQ(written["label"], "x");
    EXPECT_TRUE(validate_against_schema(kSchema, filled, "t").empty());
}

TEST(PluginConfigSchema, AWholeFloatIsAnIntegerAndAFractionIsNot) {
    const json whole = with_schema_defaults(kSchema, json::parse(R"({"retries": 10.0,
                                                                     "ports": [80.0, 443]})"));
    EXPECT_TRUE(whole["retries"].is_number_integer());
    EXPECT_EQ(whole["retries"], 10);
    EXPECT_TRUE(whole["ports"][0].is_number_integer());
    EXPECT_TRUE(validate_against_schema(kSchema, whole, "t").empty());
    // A number property keeps its float; a fraction stays for the validator to refuse.
    EXPECT_TRUE(
        with_schema_defaults(kSchema, json::parse(R"({"alpha": 1.0})"))["alpha"].is_number_float());
    const json fraction = with_schema_defaults(kSchema, json::parse(R"({"retries": 2.5})"));
    const auto violations = validate_against_schema(kSchema, fraction, "t");
    ASSERT_FALSE(violations.empty());
    EXPECT_EQ(violations.front().pointer, "/retries");
    EXPECT_EQ(violations.front().message, "expected integer, got number 2.5");
}

TEST(PluginConfigSchema, ViolationsSayWhatWasExpectedAndWhatWasGiven) {
    auto violations = validate_against_schema(kSchema, json::parse(R"({"alpha": "high"})"), "t");
    ASSERT_FALSE(violations.empty());
    EXPECT_EQ(violations.front().pointer, "/alpha");
    EXPECT_EQ(violations.front().message, "expected number, got string \"high\"");

    violations = validate_against_schema(kSchema, json::parse(R"({"mode": "medium"})"), "t");
    ASSERT_FALSE(violations.empty());
    EXPECT_EQ(violations.front().message, R"(expected one of ["fast","slow"], got "medium")");

    violations = validate_against_schema(kSchema, json::parse(R"({"retries": -1})"), "t");
    ASSERT_FALSE(violations.empty());
    EXPECT_NE(violations.front().message.find("(got -1)"), std::string::npos)
        << violations.front().message;
}

TEST(PluginConfigSchema, AnUnknownKeyIsNamedAtItsOwnPointerWithTheNearestKey) {
    const auto violations = validate_against_schema(kSchema, json::parse(R"({"retrys": 2})"), "t");
    ASSERT_FALSE(violations.empty());
    EXPECT_EQ(violations.front().pointer, "/retrys");
    EXPECT_EQ(violations.front().message,
              "not a key of this configuration; did you mean 'retries'? the keys are: alpha, "
              "label, limits, mode, ports, retries");
}

TEST(PluginConfigSchema, SubschemaFollowsPropertiesAndItems) {
    EXPECT_EQ(subschema_at(kSchema, "/limits/bytes")["default"], 4096);
    EXPECT_EQ(subschema_at(kSchema, "/ports/1")["type"], "integer");
    EXPECT_TRUE(subschema_at(kSchema, "/nothing").is_null());
    EXPECT_EQ(subschema_at(kSchema, ""), kSchema);
}

}  // namespace
