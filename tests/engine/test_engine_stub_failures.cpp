// What the stub strategies' meta turns into for a run: failure metrics by tag, schema drift
// counts, and the per-cell breakdown the run-scenarios report prints.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "engine/stub_failures.hpp"

namespace {

using nlohmann::json;
using sbx::engine::failure_tags;
using sbx::engine::stub_failure_metrics;
using Metrics = std::map<std::string, double>;

TEST(StubFailures, AFailedHostileRunCountsEachCategoryOfItsSetOnce) {
    const json meta = {{"hostile",
                        {{"a", {{"category", "sql_injection"}, {"payload_index", 3}}},
                         {"b", {{"category", "sql_injection"}, {"payload_index", 4}}},
                         {"c", {{"category", "format_string"}, {"payload_index", 9}}}}}};
    const json inputs = {{"a", "x"}, {"b", "y"}, {"c", "z"}};
    EXPECT_EQ(stub_failure_metrics(meta, inputs, false),
              (Metrics{{"hostile_failures", 1},
                       {"hostile_failures.format_string", 1},
                       {"hostile_failures.sql_injection", 1},
                       {"inputs_tried", 3}}));
    EXPECT_EQ(stub_failure_metrics(meta, inputs, true),
              (Metrics{{"hostile_failures", 0}, {"inputs_tried", 3}}));
}

TEST(StubFailures, NoMetaIsOnlyInputsTried) {
    EXPECT_EQ(stub_failure_metrics(json(), {{"a", 1}}, false), (Metrics{{"inputs_tried", 1}}));
}

TEST(StubFailures, SchemaDriftCountsChangedFieldsAgainstTheFieldsBefore) {
    // Before the drift `order` had 4 fields: id, email, total, note. `email` was renamed,
    // `note` dropped, `total` retyped and `id_extra` added: 4 changes, 4 fields now.
    const json meta = {{"legacy_schema",
                        {{"order",
                          {{{"field", "email"}, {"change", "renamed"}, {"to", "e_mail"}},
                           {{"field", "note"}, {"change", "dropped"}},
                           {{"field", "total"}, {"change", "retyped"}},
                           {{"field", "id_extra"}, {"change", "added"}, {"value", 7}}}},
                         {"meta", {{"unchanged", "not an object"}}}}}};
    const json inputs = {{"order", {{"id", 1}, {"e_mail", "a@b"}, {"total", "9"}, {"id_extra", 7}}},
                         {"meta", "x"}};
    const auto failed = stub_failure_metrics(meta, inputs, false);
    EXPECT_EQ(failed.at("schema_mismatches"), 4);
    EXPECT_DOUBLE_EQ(failed.at("schema_mismatch_rate"), 4.0 / 4.0);
    EXPECT_EQ(failed.at("schema_errors"), 1);
    EXPECT_EQ(failed.at("legacy_schema_failures.renamed"), 1);
    EXPECT_EQ(failed.at("legacy_schema_failures.added"), 1);
    const auto passed = stub_failure_metrics(meta, inputs, true);
    EXPECT_EQ(passed.at("schema_errors"), 0);
    EXPECT_EQ(passed.at("schema_mismatches"), 4);
}

TEST(StubFailures, TheCellBreakdownListsTagsAboveZeroByStrategy) {
    const Metrics cell = {{"hostile_failures", 0.5},
                          {"hostile_failures.sql_injection", 0.25},
                          {"hostile_failures.xxe", 0.0},
                          {"misuse_failures.wrong_type", 0.5},
                          {"concurrency_error_rate", 0.2}};
    EXPECT_EQ(failure_tags(cell),
              (std::map<std::string, std::map<std::string, double>>{
                  {"hostile", {{"sql_injection", 0.25}}}, {"misuse", {{"wrong_type", 0.5}}}}));
}

}  // namespace
