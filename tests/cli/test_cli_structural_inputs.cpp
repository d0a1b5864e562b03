// Structure-aware hostile inputs end to end: the order processor of tools/bench/efficacy
// --structural, which validates its JSON and refuses anything malformed, crashes on a
// field of a valid order changed one way; `run` under hostile_input finds it within the
// first 13 runs, the run's meta names the edits, and `shrink` answers with the example and
// the one change that matters. A value only the program holds is found through its words.
#include <nlohmann/json.hpp>
#include <string>

#include "cli_fixture.hpp"

namespace {

using nlohmann::json;

constexpr const char *kExample =
    R"({"id": 42, "user": "ada", "admin": false, "quantity": 3, "price": 9.5, "currency": "EUR",)"
    R"( "tags": ["new", "gift"], "items": [{"sku": "A1", "count": 1}],)"
    R"( "note": "leave at the door", "shipping": {"method": "post", "days": 2}})";

class StructuralInputs : public sbx::test::CliTest {
  protected:
    void settings_for(const std::string &bug) {
        write_settings(std::string(R"(
presets: [{SCENARIO_NAME: hostile_input, SANDBOX_STUB_STRATEGY: hostile}]
injectors: []
workflows:
  - name: orders
    steps:
      - run: [")") + SBX_STRUCTURAL_BUGS +
                       R"(", --bug, )" + bug + R"(]
        stdin: "{{input.order}}"
        inputs:
          order: {type: json, example: ')" +
                       kExample + R"('}
        rejects: {exit_codes: [2]}
)");
    }

    // The first crashed run of the last session: {id, repetition, input_meta}, or empty.
    std::vector<std::string> first_crash() {
        const auto rows = query(
            "SELECT id, repetition, input_meta FROM runs WHERE outcome = 'crashed' AND "
            "session_id = (SELECT max(id) FROM sessions) ORDER BY repetition LIMIT 1");
        return rows.empty() ? std::vector<std::string>{} : rows[0];
    }
};

TEST_F(StructuralInputs, AFlagFlippedIsFoundIn13RunsAndShrinksToTheExampleWithThatChange) {
    settings_for("admin_flag");
    const auto run = runner({"run", "--runs", "13", "--seed", "1"});
    ASSERT_NE(run.exit_code, 2) << run.err;
    const auto crash = first_crash();
    ASSERT_FALSE(crash.empty()) << "no crash within 13 runs:\n" << run.out;
    const json meta = json::parse(crash[2])["hostile"]["order"];
    EXPECT_NE(meta.dump().find("admin bool→true"), std::string::npos) << meta;

    const auto shrunk = runner({"shrink", crash[0], "--json"});
    ASSERT_EQ(shrunk.exit_code, 0) << shrunk.out << shrunk.err;
    const json report = json::parse(shrunk.out);
    EXPECT_TRUE(report["minimal"]) << report;
    EXPECT_EQ(report["broken_by"], (json{{"order", {"admin false→true"}}})) << report;
    json expected = json::parse(kExample);
    expected["admin"] = true;
    EXPECT_EQ(json::parse(report["inputs"]["order"].get<std::string>()), expected);
    const auto text = runner({"shrink", crash[0]});
    EXPECT_NE(text.out.find("broken by: admin false→true (slot order"), std::string::npos)
        << text.out;
}

TEST_F(StructuralInputs, AValueOnlyTheProgramHoldsIsFoundThroughItsWords) {
    settings_for("magic_method");
    const auto run = runner({"run", "--runs", "300", "--seed", "1", "--workers", "2"});
    ASSERT_NE(run.exit_code, 2) << run.err;
    const auto crash = first_crash();
    ASSERT_FALSE(crash.empty()) << "\"drone\" was never tried within 300 runs";
    EXPECT_NE(crash[2].find(R"(shipping.method string→\"drone\")"), std::string::npos) << crash[2];
}

}  // namespace
