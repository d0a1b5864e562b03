// tools/bench/plugins helper: the per-call cost of plugin isolation. Calls one plugin's
// kind function CALLS times in process and CALLS times through a child sbx-plugin-host
// (the same request, the same answer), interleaved in blocks so a slow moment hits both,
// and times starting an isolated instance (spawn, load, describe, create).
// Prints "call_us in_process <median>", "call_us isolated <median>", "start_us isolated
// <median>". Usage: sbx-bench-plugin-calls PLUGIN.so CALL REQUEST [CALLS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "plugins/call_by_name.hpp"
#include "plugins/plugin.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

double micros(Clock::duration span) {
    return std::chrono::duration<double, std::micro>(span).count();
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: sbx-bench-plugin-calls PLUGIN.so CALL REQUEST [CALLS]\n");
        return 2;
    }
    const std::string path = argv[1];
    const std::string call_text = argv[2];
    const std::string request = argv[3];
    const int calls = argc > 4 ? std::atoi(argv[4]) : 2000;
    const auto call =
        sbx::plugins::call_from_name(call_text).value_or(sbx::plugins::PluginCall::predict);
    const auto in_process = sbx::plugins::load_plugin(path)->create(nlohmann::json::object());
    std::vector<double> starts;
    std::unique_ptr<sbx::plugins::Instance> isolated;
    for (int i = 0; i < 9; ++i) {
        const auto start = Clock::now();
        isolated = sbx::plugins::describe_plugin(path, {})->create(nlohmann::json::object());
        starts.push_back(micros(Clock::now() - start));
    }
    if (in_process->call(call, request) != isolated->call(call, request)) {
        std::fprintf(stderr, "the isolated answer differs from the in-process one\n");
        return 1;
    }
    std::vector<double> local;
    std::vector<double> remote;
    constexpr int kBlock = 100;
    for (int done = 0; done < calls; done += kBlock) {
        for (auto [instance, into] :
             {std::pair{in_process.get(), &local}, std::pair{isolated.get(), &remote}}) {
            for (int i = 0; i < kBlock; ++i) {
                const auto start = Clock::now();
                (void)instance->call(call, request);
                into->push_back(micros(Clock::now() - start));
            }
        }
    }
    std::printf("call_us in_process %.2f\ncall_us isolated %.2f\nstart_us isolated %.0f\n",
                median(local), median(remote), median(starts));
    return 0;
}
