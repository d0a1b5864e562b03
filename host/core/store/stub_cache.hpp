// Generated input sets kept in metrics.db (table stub_cache), so a cell whose request was
// seen before reuses its sets instead of asking the strategies again — what matters for a
// slow third-party strategy (a model, a corpus lookup) and makes reruns exact.
#pragma once

#include <optional>
#include <string>

#include "store/store.hpp"

namespace sbx::store {

struct StubCacheKey {
    std::string workflow;
    std::string strategy;  // the chain as written: "faker,misuse"
    int64_t seed = 0;
    std::string request_hash;  // of the request and the strategies' versions
};

// The kept response text ({input_sets, meta}), or nullopt.
std::optional<std::string> find_stub_sets(Store &store, const StubCacheKey &key);
// Keeps `response` under `key` (the first one stays when two workers race).
void keep_stub_sets(Store &store, const StubCacheKey &key, const std::string &response);

}  // namespace sbx::store
