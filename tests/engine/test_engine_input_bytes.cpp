// Raw bytes in inputs: base64 both ways, which values are `$bytes` objects, what a template
// makes of them (whole and nested in JSON), and the run spec's `raw` field that carries
// text that is not valid UTF-8.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include <sbx/bytes_value.hpp>
#include <sbx/utf8.hpp>
#include "engine/input_bytes.hpp"
#include "engine/spec_raw_fields.hpp"
#include "engine/template.hpp"

namespace {

using nlohmann::json;
using namespace std::string_literals;

// Invalid UTF-8 (a lone 0xFF, a truncated sequence), a NUL, a quote and a backslash.
std::string hostile() {
    return {"a\xff\0b\xc3(\"\\", 8};
}

json bytes_value(const std::string &bytes) {
    return json{{"$bytes", sbx::base64_encode(bytes)}};
}

TEST(Base64, RoundTripsEveryByteAtEveryLength) {
    std::string all;
    for (int byte = 0; byte < 256; ++byte) {
        all += static_cast<char>(byte);
    }
    for (size_t length = 0; length <= all.size(); ++length) {
        const std::string bytes = all.substr(all.size() - length);
        const std::string text = sbx::base64_encode(bytes);
        EXPECT_EQ(text.size() % 4, 0U);
        EXPECT_EQ(sbx::base64_decode(text), bytes) << text;
    }
    EXPECT_EQ(sbx::base64_encode("foobar"), "Zm9vYmFy");  // RFC 4648's test vectors
    EXPECT_EQ(sbx::base64_encode("fooba"), "Zm9vYmE=");
    EXPECT_EQ(sbx::base64_encode("foob"), "Zm9vYg==");
    EXPECT_EQ(sbx::base64_encode(""), "");
}

TEST(Base64, OnlyCanonicalStandardTextDecodes) {
    for (const char *text : {"Zm9vYg", "Zm9vYg=", "Zm9v Yg==", "Zm9vYg==\n", "Zm9-Yg==", "Zm9_Yg==",
                             "Zm=vYg==", "Zm9vYh==", "Zm9vYmF=", "====", "A==="}) {
        EXPECT_EQ(sbx::base64_decode(text), std::nullopt) << text;
    }
}

TEST(Utf8, StandInReplacesEachInvalidByte) {
    EXPECT_TRUE(sbx::is_valid_utf8("plain é 🙂"));
    EXPECT_FALSE(sbx::is_valid_utf8("\xff"));
    EXPECT_FALSE(sbx::is_valid_utf8("\xc0\xaf"));      // overlong
    EXPECT_FALSE(sbx::is_valid_utf8("\xed\xa0\x80"));  // a surrogate
    EXPECT_EQ(sbx::utf8_stand_in("a\xff"
                                 "b"),
              "a\xef\xbf\xbd"
              "b");
    EXPECT_EQ(sbx::utf8_stand_in("\xe2\x82"
                                 "A"),
              "\xef\xbf\xbd\xef\xbf\xbd"
              "A");
    EXPECT_EQ(sbx::utf8_stand_in("\0é"s), "\0é"s);
}

TEST(BytesValue, IsAnObjectWithOnlyAValidBase64Text) {
    EXPECT_EQ(sbx::engine::bytes_of(bytes_value(hostile())), hostile());
    EXPECT_EQ(sbx::engine::bytes_of(json{{"$bytes", ""}}), "");
    EXPECT_EQ(sbx::engine::bytes_of(json{{"$bytes", "Zm9v"}, {"more", 1}}), std::nullopt);
    EXPECT_EQ(sbx::engine::bytes_of(json{{"$bytes", "not base64!"}}), std::nullopt);
    EXPECT_EQ(sbx::engine::bytes_of(json{{"$bytes", 7}}), std::nullopt);
    EXPECT_EQ(sbx::engine::bytes_of(json{{"bytes", "Zm9v"}}), std::nullopt);
    EXPECT_EQ(sbx::engine::bytes_of(json("Zm9v")), std::nullopt);
}

TEST(BytesValue, ExpandsToItsBytesWholeAndToAStringLiteralInsideJson) {
    const json inputs = {{"s", bytes_value(hostile())},
                         {"doc", {{"k", json::array({1, bytes_value(hostile())})}}},
                         {"plain", {{"$bytes", "Zm9v"}, {"x", "\n"}}},
                         {"text", "as is"}};
    EXPECT_EQ(sbx::engine::expand_template("{{input.s}}", inputs), hostile());
    EXPECT_EQ(sbx::engine::expand_template("<{{input.s}}>", inputs), "<" + hostile() + ">");
    // In the document: the raw bytes inside a string, only `"`, `\` and controls escaped.
    EXPECT_EQ(sbx::engine::expand_template("{{input.doc}}", inputs),
              "{\"k\":[1,\"a\xff\\u0000b\xc3(\\\"\\\\\"]}");
    // Not a `$bytes` object: compact JSON as before.
    EXPECT_EQ(sbx::engine::expand_template("{{input.plain}}", inputs),
              R"({"$bytes":"Zm9v","x":"\n"})");
    EXPECT_EQ(sbx::engine::expand_template("{{input.text}}", inputs), "as is");
    EXPECT_EQ(sbx::engine::expansion_text(json{{"b", bytes_value("\x01\t")}, {"a", nullptr}}),
              R"({"a":null,"b":"\u0001\t"})");
}

TEST(RawFields, OnlyTextThatIsNotUtf8GetsARawEntry) {
    sbx::engine::RawFields raw;
    json spec = json::object();
    spec["argv"] = {raw.text("prog", "argv", "0"), raw.text("a\xff", "argv", "1")};
    spec["stdin"] = raw.text(hostile(), "stdin");
    const std::string path = raw.path_text("f\xfe.txt");
    spec["files"] = {{path, raw.text("fine", "files", path)}};
    raw.add_to(spec);
    EXPECT_EQ(spec["argv"], json({"prog", "a\xef\xbf\xbd"}));
    EXPECT_EQ(path, "f\xef\xbf\xbd.txt");
    EXPECT_EQ(spec["raw"], json({{"argv", {{"1", sbx::base64_encode("a\xff")}}},
                                 {"stdin", sbx::base64_encode(hostile())},
                                 {"file_names", {{path, sbx::base64_encode("f\xfe.txt")}}}}));
    EXPECT_NO_THROW((void)spec.dump()) << "the spec is JSON text again";
    EXPECT_EQ(sbx::engine::exact_bytes(spec, spec["stdin"], "stdin"), hostile());
    EXPECT_EQ(sbx::engine::exact_bytes(spec, "a\xef\xbf\xbd", "argv", "1"), "a\xff");
    EXPECT_EQ(sbx::engine::exact_bytes(spec, path, "file_names", path), "f\xfe.txt");
    // A field changed since (an injector's): its text, not the stale bytes.
    EXPECT_EQ(sbx::engine::exact_bytes(spec, "changed", "argv", "1"), "changed");
    EXPECT_EQ(sbx::engine::exact_bytes(spec, "prog", "argv", "0"), "prog");

    sbx::engine::RawFields none;
    json plain = json::object();
    plain["stdin"] = none.text("valid é", "stdin");
    none.add_to(plain);
    EXPECT_FALSE(plain.contains("raw"));
}

}  // namespace
