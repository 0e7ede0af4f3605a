import Foundation
import GRDB
import ScanContract

extension AppDatabase {
    /// Stores a subscription; it gets every matching event stored from now on.
    ///
    /// - Throws: ``StoreError/invalidField(_:)`` naming `url`, `secret` or `events` (``NewWebhook/validate()``).
    package func createWebhook(_ new: NewWebhook, secret: String, at now: Date) async throws -> Webhook {
        try validate(new.validate)
        let record = WebhookRecord(new, secret: secret, created: now)
        return try await write { db in
            var inserted = record
            try inserted.insert(db)
            return try inserted.webhook(WebhookDeliveryCounts(pending: 0, delivered: 0, dead: 0))
        }
    }

    /// Every subscription by ID, with its delivery counts; never a secret.
    package func webhooks() async throws -> [Webhook] {
        try await read { db in
            let counts = try Self.deliveryCounts(in: db)
            return try WebhookRecord.order(WebhookRecord.Columns.id).fetchAll(db).map { record in
                try record.webhook(counts[record.id ?? 0] ?? WebhookDeliveryCounts(pending: 0, delivered: 0, dead: 0))
            }
        }
    }

    /// Deletes a subscription and its deliveries, pending ones too.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown ID.
    package func deleteWebhook(_ id: Int64) async throws {
        try await write { db in
            guard try WebhookRecord.deleteOne(db, key: id) else { throw StoreError.notFound("no webhook \(id)") }
        }
    }

    /// Up to `limit` of a subscription's deliveries after `id`, ascending, in `state` when given.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown webhook.
    package func webhookDeliveries(
        of webhookID: Int64, state: WebhookDeliveryState?, after id: Int64, limit: Int
    ) async throws -> FeedSlice<WebhookDelivery> {
        try await read { db in
            guard try WebhookRecord.exists(db, key: webhookID) else { throw StoreError.notFound("no webhook \(webhookID)") }
            var arguments: StatementArguments = [webhookID, id]
            var stateCondition = ""
            if let state {
                stateCondition = "AND d.state = ?"
                arguments += [state.rawValue]
            }
            let rows = try WebhookDeliveryRow.fetchAll(db, sql: """
                SELECT \(WebhookDeliveryRow.selection) FROM webhook_delivery AS d JOIN presence_event AS e ON e.id = d.event_id
                WHERE d.webhook_id = ? AND d.id > ? \(stateCondition) ORDER BY d.id LIMIT \(limit)
                """, arguments: arguments)
            return FeedSlice(items: try rows.map { try $0.delivery() }, endOfFeed: try AutoincrementEnd.of("webhook_delivery", in: db))
        }
    }

    /// The latest `limit` deliveries that failed at least once (dead, or pending a retry), newest attempt first.
    package func recentWebhookFailures(limit: Int) async throws -> [WebhookDelivery] {
        try await read { db in
            try WebhookDeliveryRow.fetchAll(db, sql: """
                SELECT \(WebhookDeliveryRow.selection) FROM webhook_delivery AS d JOIN presence_event AS e ON e.id = d.event_id
                WHERE d.state = 'dead' OR (d.state = 'pending' AND d.attempts > 0)
                ORDER BY d.last_attempt_ms DESC, d.id DESC LIMIT \(limit)
                """).map { try $0.delivery() }
        }
    }

    private static func deliveryCounts(in db: Database) throws -> [Int64: WebhookDeliveryCounts] {
        var counts: [Int64: WebhookDeliveryCounts] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT webhook_id, state, COUNT(*) AS n FROM webhook_delivery GROUP BY webhook_id, state") {
            let webhookID: Int64 = row["webhook_id"]
            let n: Int = row["n"]
            var count = counts[webhookID] ?? WebhookDeliveryCounts(pending: 0, delivered: 0, dead: 0)
            switch row["state"] as String {
            case WebhookDeliveryState.pending.rawValue: count.pending = n
            case WebhookDeliveryState.delivered.rawValue: count.delivered = n
            default: count.dead = n
            }
            counts[webhookID] = count
        }
        return counts
    }
}
