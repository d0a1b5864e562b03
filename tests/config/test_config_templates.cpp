// The {{input.NAME}} grammar shared by the loader and the engine, and the suggestions that
// turn a typo into "did you mean ...?".
#include <gtest/gtest.h>

#include <stdexcept>

#include "config/suggest.hpp"
#include "config/templates.hpp"

namespace sbx::config {
namespace {

TEST(FindInputTemplates, FindsEachWithItsSpan) {
    auto refs = find_input_templates("--in={{input.file}} {{input.mode_2}}!");
    ASSERT_EQ(refs.size(), 2u);
    EXPECT_EQ(refs[0].slot, "file");
    EXPECT_EQ(refs[0].offset, 5u);
    EXPECT_EQ(refs[0].length, 14u);
    EXPECT_EQ(refs[1].slot, "mode_2");
    EXPECT_EQ(refs[1].offset, 20u);
    EXPECT_EQ(refs[1].length, 16u);
}

TEST(FindInputTemplates, LeavesOtherBracesAlone) {
    EXPECT_TRUE(find_input_templates("{{.Names}} {\"a\": 1} {{ env.HOME }} {{").empty());
    EXPECT_TRUE(find_input_templates("{{inputs}} {{input}}").empty());
}

TEST(FindInputTemplates, RejectsMalformedInputTemplates) {
    for (const char *bad :
         {"{{input.}}", "{{input.a b}}", "{{input.1x}}", "{{input.file", "{{input.file}",
          "{{input.a-b}}", "{{ input.a }}", "{{input.a }}", "{{ input.a}}"}) {
        EXPECT_THROW(find_input_templates(bad), std::invalid_argument) << bad;
    }
}

TEST(FindInputTemplates, SpacedTemplateSaysToRemoveTheSpaces) {
    try {
        find_input_templates("{{ input.mode }}");
        FAIL() << "accepted a spaced template";
    } catch (const std::invalid_argument &error) {
        EXPECT_STREQ(error.what(),
                     "the template '{{ input.mode }}' has spaces inside the braces; write "
                     "{{input.mode}} without spaces");
    }
}

TEST(ExpandInputTemplates, ReplacesEveryTemplate) {
    auto value_of = [](const std::string &slot) { return "<" + slot + ">"; };
    EXPECT_EQ(expand_input_templates("a {{input.x}} b {{input.y}}{{input.x}}", value_of),
              "a <x> b <y><x>");
    EXPECT_EQ(expand_input_templates("no templates {{here}}", value_of), "no templates {{here}}");
}

TEST(Suggest, ClosestMatch) {
    const std::vector<std::string> keys = {"executor", "data_dir", "workers", "plugins"};
    EXPECT_EQ(closest_match("executer", keys), "executor");
    EXPECT_EQ(closest_match("exectuor", keys), "executor");  // a swap is one edit
    EXPECT_EQ(closest_match("Workers", keys), "workers");
    EXPECT_EQ(closest_match("runs", keys), std::nullopt);
    EXPECT_EQ(closest_match("x", keys), std::nullopt);
    EXPECT_EQ(closest_match("warning", {"info", "warn", "error"}), "warn");
    EXPECT_EQ(closest_match("err", {"info", "warn", "error"}), "error");
    EXPECT_EQ(closest_match("wa", {"info", "warn", "error"}), std::nullopt);
    EXPECT_EQ(did_you_mean("plugin", keys), "did you mean 'plugins'? ");
    EXPECT_EQ(did_you_mean("zzz", keys), "");
    EXPECT_EQ(join({"a", "b"}), "a, b");
    EXPECT_EQ(join({}), "none");
}

TEST(Suggest, EditDistance) {
    EXPECT_EQ(edit_distance("", "abc"), 3u);
    EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
    EXPECT_EQ(edit_distance("ab", "ba"), 1u);
    EXPECT_EQ(edit_distance("same", "same"), 0u);
}

}  // namespace
}  // namespace sbx::config
