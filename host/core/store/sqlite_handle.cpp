// SQLite RAII wrappers.
#include "store/sqlite_handle.hpp"

#include <cstdio>
#include <filesystem>

#include "util/errors.hpp"

namespace sbx::store {
namespace {

[[noreturn]] void fail(sqlite3 *db, const std::string &what) {
    const char *detail = db ? sqlite3_errmsg(db) : "out of memory";
    const char *file = db ? sqlite3_db_filename(db, "main") : nullptr;
    throw EnvironmentError(std::string(file ? file : "database") + ": " + what + ": " + detail);
}

}  // namespace

Statement::Statement(sqlite3 *db, const std::string &sql)
    : db_(db), stmt_(nullptr, sqlite3_finalize) {
    sqlite3_stmt *raw = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()), &raw, nullptr) !=
        SQLITE_OK) {
        fail(db, "cannot prepare `" + sql + "`");
    }
    stmt_.reset(raw);
}

Statement &Statement::bind(int index, int64_t value) {
    sqlite3_bind_int64(stmt_.get(), index, value);
    return *this;
}
Statement &Statement::bind(int index, double value) {
    sqlite3_bind_double(stmt_.get(), index, value);
    return *this;
}
Statement &Statement::bind(int index, const std::string &value) {
    sqlite3_bind_text(stmt_.get(), index, value.data(), static_cast<int>(value.size()),
                      SQLITE_TRANSIENT);
    return *this;
}
Statement &Statement::bind_null(int index) {
    sqlite3_bind_null(stmt_.get(), index);
    return *this;
}

Statement &Statement::bind(int index, const std::optional<int64_t> &value) {
    return value ? bind(index, *value) : bind_null(index);
}

bool Statement::step() {
    const int rc = sqlite3_step(stmt_.get());
    if (rc == SQLITE_ROW) {
        return true;
    }
    if (rc == SQLITE_DONE) {
        return false;
    }
    fail(db_, "statement failed");
}

void Statement::run() {
    while (step()) {
    }
    reset();
}

void Statement::reset() {
    sqlite3_reset(stmt_.get());
    sqlite3_clear_bindings(stmt_.get());
}

int64_t Statement::column_int(int index) const {
    return sqlite3_column_int64(stmt_.get(), index);
}
double Statement::column_double(int index) const {
    return sqlite3_column_double(stmt_.get(), index);
}
std::string Statement::column_text(int index) const {
    const auto *text = sqlite3_column_text(stmt_.get(), index);
    return text ? reinterpret_cast<const char *>(text) : "";
}
bool Statement::column_is_null(int index) const {
    return sqlite3_column_type(stmt_.get(), index) == SQLITE_NULL;
}

Connection::Connection(const std::string &path) : path_(path), db_(nullptr, sqlite3_close) {
    sqlite3 *raw = nullptr;
    const int rc =
        sqlite3_open_v2(path.c_str(), &raw,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
    db_.reset(raw);
    if (rc != SQLITE_OK) {
        fail(raw, "cannot open");
    }
    sqlite3_busy_timeout(raw, 5000);
}

Connection::Connection(const std::string &path, ReadOnly)
    : path_(path), db_(nullptr, sqlite3_close) {
    sqlite3 *raw = nullptr;
    const int rc =
        sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr);
    db_.reset(raw);
    if (rc != SQLITE_OK) {
        fail(raw, "cannot open (read-only)");
    }
    sqlite3_busy_timeout(raw, 5000);
}

void Connection::exec(const std::string &sql) {
    char *error = nullptr;
    if (sqlite3_exec(db_.get(), sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
        const std::string detail = error ? error : "unknown error";
        sqlite3_free(error);
        throw EnvironmentError(path_ + ": `" + sql.substr(0, 60) + "` failed: " + detail);
    }
}

void Connection::begin() {
    if (!begin_) {
        begin_ = std::make_unique<Statement>(db_.get(), "BEGIN IMMEDIATE");
    }
    begin_->run();
}

void Connection::commit() {
    if (!commit_) {
        commit_ = std::make_unique<Statement>(db_.get(), "COMMIT");
    }
    commit_->run();
}

void Connection::rollback() {
    if (!rollback_) {
        rollback_ = std::make_unique<Statement>(db_.get(), "ROLLBACK");
    }
    rollback_->run();
}

Transaction::Transaction(Connection &connection) : connection_(connection) {
    connection_.begin();
}

Transaction::~Transaction() {
    if (!done_) {
        try {
            connection_.rollback();
        } catch (...) {  // the connection is closing anyway; nothing half-written survives
        }
    }
}

void Transaction::commit() {
    connection_.commit();
    done_ = true;
}

}  // namespace sbx::store
