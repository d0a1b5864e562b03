// Thin RAII over the SQLite C API: a connection and prepared statements that finalize
// themselves, with errors turned into exceptions that name the database file.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace sbx::store {

class Statement {
  public:
    Statement(sqlite3 *db, const std::string &sql);
    Statement &bind(int index, int64_t value);
    Statement &bind(int index, double value);
    Statement &bind(int index, const std::string &value);
    Statement &bind_null(int index);
    // The value, or NULL when there is none.
    Statement &bind(int index, const std::optional<int64_t> &value);
    // Steps once; true when a row is available.
    bool step();
    // Runs to completion and resets, ready for the next bind.
    void run();
    void reset();
    [[nodiscard]] int64_t column_int(int index) const;
    [[nodiscard]] double column_double(int index) const;
    [[nodiscard]] std::string column_text(int index) const;
    [[nodiscard]] bool column_is_null(int index) const;

  private:
    sqlite3 *db_;
    std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt *)> stmt_;
};

class Connection {
  public:
    // Read-write, creating the file when missing.
    explicit Connection(const std::string &path);
    // Read-only: an existing file, never created, never written (the dashboard, reports).
    struct ReadOnly {};
    Connection(const std::string &path, ReadOnly);
    [[nodiscard]] sqlite3 *get() const { return db_.get(); }
    void exec(const std::string &sql);
    [[nodiscard]] const std::string &path() const { return path_; }
    // BEGIN IMMEDIATE / COMMIT / ROLLBACK through statements prepared once: re-parsing
    // them for every per-run transaction was a tenth of the host's per-run CPU.
    void begin();
    void commit();
    void rollback();

  private:
    std::string path_;
    std::unique_ptr<sqlite3, int (*)(sqlite3 *)> db_;
    std::unique_ptr<Statement> begin_, commit_, rollback_;
};

// BEGIN IMMEDIATE ... COMMIT, rolled back when the scope is left by an exception.
class Transaction {
  public:
    explicit Transaction(Connection &connection);
    ~Transaction();
    Transaction(const Transaction &) = delete;
    Transaction &operator=(const Transaction &) = delete;
    void commit();

  private:
    Connection &connection_;
    bool done_ = false;
};

}  // namespace sbx::store
