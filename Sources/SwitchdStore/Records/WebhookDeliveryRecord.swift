import Foundation
import ScanContract

/// A `webhook_delivery` row joined with its event's scanner, tag and kind, read as a ``WebhookDelivery``.
struct WebhookDeliveryRow {
    var id: Int64
    var webhookID: Int64
    var eventID: Int64
    var scannerID: String?
    var tagID: Int64?
    var kind: String
    var state: String
    var attempts: Int
    var lastStatus: Int?
    var lastError: String?
    var lastAttemptMs: Int64?

    /// The columns this row reads, from `webhook_delivery AS d JOIN presence_event AS e`.
    static let selection = """
        d.id, d.webhook_id, d.event_id, e.scanner_id, e.tag_id, e.kind, d.state, d.attempts, d.last_status, d.last_error, d.last_attempt_ms
        """

    /// - Throws: ``StoreError/corruptRow(_:)`` for a column missing or of another kind.
    init(row: StoreRow) throws {
        id = try row.int64("id")
        webhookID = try row.int64("webhook_id")
        eventID = try row.int64("event_id")
        scannerID = try row.optionalString("scanner_id")
        tagID = try row.optionalInt64("tag_id")
        kind = try row.string("kind")
        state = try row.string("state")
        attempts = try row.int("attempts")
        lastStatus = try row.optionalInt("last_status")
        lastError = try row.optionalString("last_error")
        lastAttemptMs = try row.optionalInt64("last_attempt_ms")
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` for a state, kind or scanner ID switchd does not write.
    func delivery() throws -> WebhookDelivery {
        guard let deliveryState = WebhookDeliveryState(rawValue: state), let eventKind = PresenceEventKind(rawValue: kind) else {
            throw StoreError.corruptRow("webhook delivery \(id) has state \"\(state)\" and kind \"\(kind)\"")
        }
        return WebhookDelivery(
            id: id, webhookID: webhookID, eventID: eventID, scannerID: try scannerID.map(storedScannerID), tagID: tagID, kind: eventKind,
            state: deliveryState, attempts: attempts, lastStatus: lastStatus, lastError: lastError,
            lastAttempt: lastAttemptMs.map(Date.init(milliseconds:))
        )
    }
}
