// The `random` stub strategy: seeded random values by slot type, honouring min/max and
// enum values; one SplitMix64 stream per request, so a seed replays byte for byte.
#include <sbx/plugin.hpp>

#include "support/stub_request.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include <sbx/random.hpp>
#include "random_values.hpp"

namespace {

using nlohmann::json;

class RandomStub final : public sbx::StubStrategy {
  public:
    static constexpr sbx::About about{
        "random",
        "Random inputs",
        "1.0.0",
        "Fills every input slot with a seeded random value of its type, within min/max "
        "(string length for text) and among enum values; same seed, same bytes.",
        R"({"type":"object","additionalProperties":false,"properties":{}})",
        "sandbox-runner",
        "https://example.invalid/sandbox-runner",
        "Apache-2.0"};

    explicit RandomStub(const std::string &config_json) {
        // sandbox-runner checks the schema first; this guards hosts that do not.
        sbx::support::require_empty_config(config_json, "random");
    }

    std::string generate(const std::string &request_json) override {
        const auto request = sbx::support::read_request(request_json, "random");
        const json &named = request.slots;
        sbx::SplitMix64 rng(request.seed);
        // A dry run on a scratch stream, so bad bounds are refused even when count is 0.
        sbx::SplitMix64 scratch(0);
        for (const auto &[name, slot] : named.items()) {
            sbx_random::random_value(slot, scratch);
        }
        const uint64_t count = request.count;
        json sets = json::array();
        for (uint64_t j = 0; j < count; ++j) {
            if ((j & 0x3FFU) == 0x3FFU && sbx::host::cancelled()) {
                throw sbx::Error(SBX_CANCELLED, "random: cancelled");
            }
            json set = json::object();
            for (const auto &[name, slot] : named.items()) {  // name order: objects are sorted
                set[name] = sbx_random::random_value(slot, rng);
            }
            sets.push_back(std::move(set));
        }
        return json{{"input_sets", std::move(sets)}}.dump();
    }
};

}  // namespace

SBX_PLUGIN(RandomStub);
