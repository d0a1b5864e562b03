// The accepted values of scalar settings that both sandbox_settings.yaml and the SANDBOX_*
// environment variables can set, so the two sources agree on what is valid.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sbx::config {

// spdlog's level names, most verbose first.
const std::vector<std::string> &log_levels();

// Workers from "auto" (hardware concurrency, at least 1) or a whole number 1..kMaxWorkers;
// nullopt for anything else.
constexpr unsigned kMaxWorkers = 1024;
std::optional<unsigned> parse_workers(std::string_view text);

// A whole number written in decimal within [min, max]; nullopt for anything else.
std::optional<int64_t> parse_whole_number(std::string_view text, int64_t min, int64_t max);

// An on/off switch from an environment variable: 1, 0, true, false (any case).
std::optional<bool> parse_switch(std::string_view text);

// The ways adapt-presets steps presets: q_learning (the learned policy) and rules.
bool is_preset_strategy(std::string_view text);

// `input_stubs` must be a non-empty list of objects (input sets); calls `fail` with what is
// wrong ("must be a list, not ...", "item 3 is not an object").
void check_input_stubs(const nlohmann::json &sets,
                       const std::function<void(const std::string &problem)> &fail);

}  // namespace sbx::config
