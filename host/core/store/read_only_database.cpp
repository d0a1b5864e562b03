#include "store/read_only_database.hpp"

#include "store/migrations.hpp"
#include "util/errors.hpp"

namespace sbx::store {

std::unique_ptr<Connection> open_read_only(const std::filesystem::path &path, int minimum_version) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        return nullptr;
    }
    auto connection = std::make_unique<Connection>(path.string(), Connection::ReadOnly{});
    Statement query(connection->get(), "PRAGMA user_version");
    query.step();
    const auto version = static_cast<int>(query.column_int(0));
    if (version > latest_schema_version()) {
        throw EnvironmentError(path.string() + " has schema version " + std::to_string(version) +
                               " but this sandbox-runner knows only " +
                               std::to_string(latest_schema_version()) +
                               "; use a newer sandbox-runner");
    }
    if (minimum_version < 0) {
        minimum_version = latest_schema_version();
    }
    if (version < minimum_version) {
        throw InputError(path.string() + " has schema version " + std::to_string(version) +
                         "; run `sandbox-runner purge-stale` once to upgrade it");
    }
    return connection;
}

}  // namespace sbx::store
