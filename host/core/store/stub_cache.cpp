// The stub_cache table.
#include "store/stub_cache.hpp"

namespace sbx::store {

std::optional<std::string> find_stub_sets(Store &store, const StubCacheKey &key) {
    return store.locked([&](Connection &connection) -> std::optional<std::string> {
        Statement query(connection.get(),
                        "SELECT response FROM stub_cache WHERE workflow = ? AND strategy = ? AND "
                        "seed = ? AND request_hash = ?");
        query.bind(1, key.workflow)
            .bind(2, key.strategy)
            .bind(3, key.seed)
            .bind(4, key.request_hash);
        if (!query.step()) {
            return std::nullopt;
        }
        return query.column_text(0);
    });
}

void keep_stub_sets(Store &store, const StubCacheKey &key, const std::string &response) {
    store.locked([&](Connection &connection) {
        Statement insert(connection.get(),
                         "INSERT OR IGNORE INTO stub_cache(workflow, strategy, seed, request_hash, "
                         "created_at, response) VALUES(?, ?, ?, ?, ?, ?)");
        insert.bind(1, key.workflow)
            .bind(2, key.strategy)
            .bind(3, key.seed)
            .bind(4, key.request_hash)
            .bind(5, utc_now())
            .bind(6, response)
            .run();
    });
}

}  // namespace sbx::store
