#include "store/alert_records.hpp"

namespace sbx::store {

void record_alert(Store &store, const AlertRecord &alert) {
    store.locked([&](Connection &connection) {
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
    });
}

}  // namespace sbx::store
