// The plugin calls in flight and since when, so the progress line can name a plugin that
// keeps the host waiting (a predictor taking 5 s a call once left the line at 100 % with no
// word of what it waited on).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "plugins/plugin_call.hpp"

namespace sbx::plugins {

// In flight from construction to destruction. An executor's `run` is not watched: its time
// is the target's.
class CallWatch {
  public:
    CallWatch(const std::string &plugin_id, PluginCall call);
    ~CallWatch();
    CallWatch(const CallWatch &) = delete;
    CallWatch &operator=(const CallWatch &) = delete;

  private:
    uint64_t token_ = 0;  // 0: not watched
};

struct WaitedCall {
    std::string plugin_id;
    std::string call;
    std::chrono::milliseconds waited{0};
};

// The call in flight the longest, if any.
std::optional<WaitedCall> longest_call_in_flight();

}  // namespace sbx::plugins
