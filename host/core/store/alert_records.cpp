#include "store/alert_records.hpp"

namespace sbx::store {

int64_t record_alert(Store &store, const AlertRecord &alert) {
    return store.locked([&](Connection &connection) {
        Statement insert(connection.get(),
                         "INSERT INTO alerts(at, session_id, kind, subject, message, delivered, "
                         "error) VALUES(?, ?, ?, ?, ?, ?, ?)");
        insert.bind(1, utc_now())
            .bind(2, alert.session_id)
            .bind(3, alert.kind)
            .bind(4, alert.subject)
            .bind(5, alert.message)
            .bind(6, static_cast<int64_t>(alert.delivered ? 1 : 0))
            .bind(7, alert.error)
            .run();
        return static_cast<int64_t>(sqlite3_last_insert_rowid(connection.get()));
    });
}

void settle_alert(Store &store, int64_t id, bool delivered, const std::string &error) {
    store.locked([&](Connection &connection) {
        Statement(connection.get(), "UPDATE alerts SET delivered = ?, error = ? WHERE id = ?")
            .bind(1, static_cast<int64_t>(delivered ? 1 : 0))
            .bind(2, error)
            .bind(3, id)
            .run();
    });
}

}  // namespace sbx::store
