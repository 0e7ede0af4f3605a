import Foundation
import ScanContract

/// A subscription: where to send and the secret to sign with.
package struct WebhookTarget: Hashable, Sendable {
    package var id: Int64
    package var url: String
    package var secret: String
}

/// A delivery waiting to be sent, with its event.
package struct PendingDelivery: Hashable, Sendable {
    package var id: Int64
    package var attempts: Int
    package var event: PresenceEvent
}

/// How one attempt at a delivery went.
package enum DeliveryOutcome: Sendable, Equatable {
    /// The receiver answered 2xx with this status.
    case delivered(status: Int)
    /// No 2xx: the status when there was an answer, and why. `dead` when it is not to be tried again.
    case failed(status: Int?, reason: String, dead: Bool)
}

/// One attempt at a delivery, to record.
package struct DeliveryAttempt: Sendable, Equatable {
    package var deliveryID: Int64
    package var outcome: DeliveryOutcome
    package var time: Date

    package init(deliveryID: Int64, outcome: DeliveryOutcome, time: Date) {
        self.deliveryID = deliveryID
        self.outcome = outcome
        self.time = time
    }
}

extension AppDatabase {
    /// Every subscription's ID, ascending.
    package func webhookIDs() async throws -> [Int64] {
        try await readStatements { sql in
            try sql.rows("SELECT id FROM webhook ORDER BY id", []).map { try $0.int64("id") }
        }
    }

    /// Where to send a subscription's deliveries and the secret to sign them with; nil once it is deleted.
    package func webhookTarget(_ id: Int64) async throws -> WebhookTarget? {
        try await readStatements { sql in
            try WebhookRecord.withID(sql, id).map { WebhookTarget(id: $0.id ?? id, url: $0.url, secret: $0.secret) }
        }
    }

    /// A subscription's first `limit` pending deliveries, in the order their events were stored.
    package func pendingDeliveries(of webhookID: Int64, limit: Int) async throws -> [PendingDelivery] {
        try await readStatements { sql in
            let columns = PresenceEventRecord.columns.split(separator: ", ").map { "e.\($0)" }.joined(separator: ", ")
            let rows = try sql.rows("""
                SELECT d.id AS delivery_id, d.attempts, \(columns) FROM webhook_delivery AS d JOIN presence_event AS e ON e.id = d.event_id
                WHERE d.webhook_id = ? AND d.state = 'pending' ORDER BY d.id LIMIT ?
                """, [.integer(webhookID), StoreValue(limit)])
            return try rows.map { row in
                PendingDelivery(id: try row.int64("delivery_id"), attempts: try row.int("attempts"), event: try PresenceEventRecord(row: row).event())
            }
        }
    }

    /// Records attempts, in one transaction: for each, one more attempt, its status and error, its
    /// time, and the new state. A delivery deleted meanwhile (its webhook or scanner went) is left
    /// deleted. Should this fail, the deliveries stay pending and are sent again: at least once.
    package func recordDeliveryAttempts(_ attempts: [DeliveryAttempt]) async throws {
        try await writeStatements { sql in
            for attempt in attempts {
                let (state, status, reason): (WebhookDeliveryState, Int?, String?) = switch attempt.outcome {
                case .delivered(let status): (.delivered, status, nil)
                case .failed(let status, let reason, let dead): (dead ? .dead : .pending, status, reason)
                }
                try sql.execute("""
                    UPDATE webhook_delivery SET attempts = attempts + 1, state = ?, last_status = ?, last_error = ?, last_attempt_ms = ?
                    WHERE id = ?
                    """, [.text(state.rawValue), StoreValue(status), StoreValue(reason), .integer(attempt.time.milliseconds), .integer(attempt.deliveryID)])
            }
        }
    }
}
