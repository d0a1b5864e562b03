// Drawing fuzzed requests. The text a target prints is the most hostile part of a request
// (it reaches collectors verbatim): quotes, braces, backslashes, control characters,
// multi-byte UTF-8 and sheer length, always valid UTF-8 as the host sends it.
#include "plugins/fuzzed_requests.hpp"

#include <sbx/random.hpp>

#include <array>
#include <string>

namespace sbx::plugins {
namespace {

using nlohmann::json;

std::string hostile_text(SplitMix64 &random, size_t max_length) {
    static constexpr std::array<const char *, 14> kPieces = {"\"",
                                                             "}",
                                                             "{",
                                                             "\\",
                                                             "\n",
                                                             "\t",
                                                             "\x01",
                                                             "%s%n",
                                                             "\xc3\xa9",
                                                             "\xe2\x82\xac",
                                                             "\xf0\x9f\x92\xa5",
                                                             "null",
                                                             "]",
                                                             "' OR 1=1 --"};
    const size_t length = random.below(max_length + 1);
    std::string text;
    while (text.size() < length) {
        if (random.below(3) == 0) {
            text += kPieces[random.below(kPieces.size())];
        } else {
            text += static_cast<char>('a' + random.below(26));
        }
    }
    return text;
}

// A name a user could give a workflow, step or slot (settings allow any text).
std::string name(SplitMix64 &random) {
    const std::string text = hostile_text(random, 24);
    return text.empty() ? "x" : text;
}

// 0 to 2 fields no host sends yet: a plugin must ignore what it does not know.
void add_unknown_fields(json &request, SplitMix64 &random) {
    const auto count = random.below(3);
    for (uint64_t i = 0; i < count; ++i) {
        const std::string key = "future_" + std::to_string(random.below(1000));
        switch (random.below(4)) {
            case 0:
                request[key] = random.unit();
                break;
            case 1:
                request[key] = hostile_text(random, 40);
                break;
            case 2:
                request[key] = json::array({1, "two", nullptr});
                break;
            default:
                request[key] = json{{"nested", {{"deeper", true}}}};
                break;
        }
    }
}

json step_result(SplitMix64 &random) {
    static constexpr std::array<const char *, 6> kStatuses = {"OK", "RE", "SG", "TO", "OOM", "XX"};
    const std::string status = kStatuses[random.below(kStatuses.size())];
    // Mostly short, sometimes 64 KiB: the executors capture that much.
    const size_t longest = random.below(4) == 0 ? 65536 : 200;
    std::string out = hostile_text(random, longest);
    std::string err = hostile_text(random, longest);
    return {{"status", status},
            {"exit_code", status == "RE" ? static_cast<int>(1 + random.below(255)) : 0},
            {"signal", status == "SG" ? 11 : 0},
            {"wall_s", random.unit() * 30},
            {"cpu_user_s", random.unit()},
            {"cpu_sys_s", random.unit()},
            {"max_rss_kb", random.below(4u << 20)},
            {"stdout", out},
            {"stderr", err},
            {"stdout_bytes", out.size()},
            {"stderr_bytes", err.size()}};
}

}  // namespace

json fuzzed_collect(const std::string &phase, uint64_t seed) {
    SplitMix64 random(seed);
    json request{{"phase", phase},
                 {"session", random.below(100000)},
                 {"workflow", name(random)},
                 {"scenario", name(random)},
                 {"flag", random.below(2) == 0 ? "on" : "off"}};
    if (phase == "cell") {
        request["roi"] = random.unit();
        request["prev_roi"] = random.below(2) == 0 ? json() : json(random.unit());
        request["runs"] = 1 + random.below(1000);
    } else {
        const auto steps = random.below(6);  // a run may fail before its first step
        json names = json::array();
        json commands = json::array();
        json results = json::array();
        bool passed = true;
        for (uint64_t i = 0; i < steps; ++i) {
            names.push_back(name(random));
            commands.push_back(json::array({"/bin/" + name(random), name(random)}));
            results.push_back(step_result(random));
            passed = passed && results.back()["status"] == "OK";
        }
        request["passed"] = passed;
        request["repetition"] = random.below(100);
        request["step_names"] = names;
        request["commands"] = commands;
        request["steps"] = results;
        request["preset"] = {{"SCENARIO_NAME", request["scenario"]}};
    }
    add_unknown_fields(request, random);
    return request;
}

json fuzzed_predict(uint64_t seed) {
    SplitMix64 random(seed);
    const auto points = 1 + random.below(200);
    json series = json::array();
    json timestamps = json::array();
    for (uint64_t i = 0; i < points; ++i) {
        // Edges included: a cell that always or never passes.
        const auto draw = random.below(10);
        series.push_back(draw == 0 ? 0.0 : draw == 1 ? 1.0 : random.unit());
        char stamp[32];
        std::snprintf(stamp, sizeof stamp, "2026-%02d-%02dT%02d:00:00.000Z",
                      static_cast<int>(1 + i / 28 % 12), static_cast<int>(1 + i % 28),
                      static_cast<int>(i % 24));
        timestamps.push_back(stamp);
    }
    json request{{"series", series},
                 {"timestamps", timestamps},
                 {"subject", "roi:" + name(random) + ":" + name(random) + ":on"},
                 {"metric", "roi"}};
    add_unknown_fields(request, random);
    return request;
}

json fuzzed_generate(uint64_t seed) {
    SplitMix64 random(seed);
    json slots = json::object();
    const auto count = random.below(6);
    for (uint64_t i = 0; i < count; ++i) {
        json slot{{"required", random.below(2) == 0}};
        switch (random.below(5)) {
            case 0:
                slot.update({{"type", "string"}, {"example", hostile_text(random, 30)}});
                break;
            case 1:
                slot.update({{"type", "int"}, {"min", -5}, {"max", 500}, {"example", 3}});
                break;
            case 2:
                slot.update({{"type", "float"}, {"example", 2.5}});
                break;
            case 3:
                slot.update({{"type", "bool"}, {"example", true}});
                break;
            default:
                slot.update({{"type", "json"}, {"example", {{"id", 1}, {"tags", {"a"}}}}});
                break;
        }
        slots["slot_" + std::to_string(i) + "_" + name(random)] = slot;
    }
    json request{{"slots", slots},
                 {"count", 1 + random.below(8)},
                 {"seed", random.below(1u << 31)},
                 {"preset", {{"SCENARIO_NAME", name(random)}}}};
    add_unknown_fields(request, random);
    return request;
}

}  // namespace sbx::plugins
