// The SDK's host::cancelled() and sbx::Error live on the plugin's side of the ABI; the shared
// client knows neither, so they are handed in here.
#include "engine_connection.hpp"

#include <sbx/plugin.hpp>

#include <stdexcept>

namespace sbx::docker {

std::unique_ptr<EngineApi> connect_engine(std::chrono::milliseconds call_timeout,
                                          std::chrono::milliseconds start_timeout) {
    EngineEndpoint endpoint;
    try {
        endpoint = EngineEndpoint::from_environment();
    } catch (const std::invalid_argument &e) {
        throw Error(SBX_INVALID, e.what());
    }
    return std::make_unique<EngineApi>(std::move(endpoint), call_timeout, start_timeout,
                                       [] { return host::cancelled(); });
}

}  // namespace sbx::docker
