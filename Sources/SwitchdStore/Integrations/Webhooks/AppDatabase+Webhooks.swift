import Foundation
import ScanContract

extension AppDatabase {
    /// The lock creating a subscription takes, so that on PostgreSQL two instances' counts of
    /// the subscriptions run one after another.
    static let webhooksLock = "webhooks"

    /// Stores a subscription; it gets every matching event stored from now on.
    ///
    /// - Throws: ``StoreError/invalidField(_:)`` naming `url`, `secret`, `events` (``NewWebhook/validate()``)
    ///   or `subjects` (``NewWebhook/validateSubjects()``); ``StoreError/conflict(_:)`` when
    ///   `max` subscriptions exist.
    package func createWebhook(_ new: NewWebhook, secret: String, at now: Date, max: Int = .max) async throws -> Webhook {
        try validate(new.validate)
        try validate(new.validateSubjects)
        let record = WebhookRecord(new, secret: secret, created: now)
        return try await writeStatements { sql in
            try sql.lock(Self.webhooksLock)
            try Self.checkRoom(in: "webhook", for: "webhooks", max: max, setting: "max-webhooks", sql)
            return try record.inserted(sql).webhook(WebhookDeliveryCounts(pending: 0, delivered: 0, dead: 0))
        }
    }

    /// Subscriptions by ID, at most `limit` of those after `after`, with their delivery counts;
    /// never a secret.
    package func webhooks(after: Int64 = 0, limit: Int = .max) async throws -> [Webhook] {
        try await readStatements { sql in
            let counts = try Self.deliveryCounts(in: sql)
            return try WebhookRecord.all(sql, after: after, limit: limit).map { record in
                try record.webhook(counts[record.id ?? 0] ?? WebhookDeliveryCounts(pending: 0, delivered: 0, dead: 0))
            }
        }
    }

    /// Deletes a subscription and its deliveries, pending ones too.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown ID.
    package func deleteWebhook(_ id: Int64) async throws {
        try await writeStatements { sql in
            guard try sql.execute("DELETE FROM webhook WHERE id = ?", [.integer(id)]) > 0 else { throw StoreError.notFound("no webhook \(id)") }
        }
    }

    /// Up to `limit` of a subscription's deliveries after `id`, ascending, in `state` when given.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown webhook.
    package func webhookDeliveries(
        of webhookID: Int64, state: WebhookDeliveryState?, after id: Int64, limit: Int
    ) async throws -> FeedSlice<WebhookDelivery> {
        var conditions = StoreConditions()
        conditions.add("d.webhook_id = ?", .integer(webhookID))
        conditions.add("d.id > ?", .integer(id))
        conditions.add("d.state = ?", state.map { .text($0.rawValue) })
        return try await readStatements { [conditions] sql in
            guard try WebhookRecord.withID(sql, webhookID) != nil else { throw StoreError.notFound("no webhook \(webhookID)") }
            let rows = try sql.rows("""
                SELECT \(WebhookDeliveryRow.selection) FROM webhook_delivery AS d JOIN presence_event AS e ON e.id = d.event_id
                WHERE \(conditions.sql) ORDER BY d.id LIMIT ?
                """, conditions.values + [StoreValue(limit)])
            let items = try rows.map { try WebhookDeliveryRow(row: $0).delivery() }
            return FeedSlice(items: items, endOfFeed: try SequencedFeed.webhookDeliveries.end(in: sql))
        }
    }

    /// The latest `limit` deliveries that failed at least once (dead, or pending a retry), newest attempt first.
    package func recentWebhookFailures(limit: Int) async throws -> [WebhookDelivery] {
        try await readStatements { sql in
            try sql.rows("""
                SELECT \(WebhookDeliveryRow.selection) FROM webhook_delivery AS d JOIN presence_event AS e ON e.id = d.event_id
                WHERE d.state = 'dead' OR (d.state = 'pending' AND d.attempts > 0)
                ORDER BY d.last_attempt_ms DESC, d.id DESC LIMIT ?
                """, [StoreValue(limit)]).map { try WebhookDeliveryRow(row: $0).delivery() }
        }
    }

    private static func deliveryCounts(in sql: any StoreTransaction) throws -> [Int64: WebhookDeliveryCounts] {
        var counts: [Int64: WebhookDeliveryCounts] = [:]
        for row in try sql.rows("SELECT webhook_id, state, COUNT(*) AS n FROM webhook_delivery GROUP BY webhook_id, state", []) {
            let webhookID = try row.int64("webhook_id")
            let n = try row.int("n")
            var count = counts[webhookID] ?? WebhookDeliveryCounts(pending: 0, delivered: 0, dead: 0)
            switch try row.string("state") {
            case WebhookDeliveryState.pending.rawValue: count.pending = n
            case WebhookDeliveryState.delivered.rawValue: count.delivered = n
            default: count.dead = n
            }
            counts[webhookID] = count
        }
        return counts
    }
}
