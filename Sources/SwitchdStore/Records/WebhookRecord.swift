import Foundation
import ScanContract

/// A `webhook` row. `events` is the kinds sent, comma-separated, `subjects` whose events
/// (``WebhookSubject``), comma-separated; `secret` is kept as given,
/// since deliveries are signed with it. Written and read through ``StoreTransaction``.
struct WebhookRecord {
    var id: Int64?
    var url: String
    var secret: String
    var events: String
    var subjects: String
    var createdMs: Int64

    init(_ new: NewWebhook, secret: String, created: Date) {
        url = new.url
        self.secret = secret
        let kinds = Set(new.events ?? PresenceEventKind.allCases)
        events = PresenceEventKind.allCases.filter(kinds.contains).map(\.rawValue).joined(separator: ",")
        let chosen = Set(new.subjects ?? WebhookSubject.allCases)
        subjects = WebhookSubject.allCases.filter(chosen.contains).map(\.rawValue).joined(separator: ",")
        createdMs = created.milliseconds
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` for a kind switchd does not write.
    func kinds() throws -> [PresenceEventKind] {
        try events.split(separator: ",").map { text in
            guard let kind = PresenceEventKind(rawValue: String(text)) else {
                throw StoreError.corruptRow("webhook \(id ?? 0) names event kind \"\(text)\"")
            }
            return kind
        }
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` for a subject switchd does not write.
    func subjectList() throws -> [WebhookSubject] {
        try subjects.split(separator: ",").map { text in
            guard let subject = WebhookSubject(rawValue: String(text)) else {
                throw StoreError.corruptRow("webhook \(id ?? 0) names subject \"\(text)\"")
            }
            return subject
        }
    }

    func webhook(_ counts: WebhookDeliveryCounts) throws -> Webhook {
        Webhook(
            id: id ?? 0, url: url, events: try kinds(), subjects: try subjectList(), created: Date(milliseconds: createdMs), deliveries: counts
        )
    }

    static let columns = "id, url, secret, events, subjects, created_ms"

    /// - Throws: ``StoreError/corruptRow(_:)`` for a column missing or of another kind.
    init(row: StoreRow) throws {
        id = try row.int64("id")
        url = try row.string("url")
        secret = try row.string("secret")
        events = try row.string("events")
        subjects = try row.string("subjects")
        createdMs = try row.int64("created_ms")
    }

    static func withID(_ sql: any StoreTransaction, _ id: Int64) throws -> WebhookRecord? {
        try sql.row("SELECT \(columns) FROM webhook WHERE id = ?", [.integer(id)]).map(WebhookRecord.init(row:))
    }

    /// By ID, at most `limit` of those after `after`.
    static func all(_ sql: any StoreTransaction, after: Int64 = 0, limit: Int = .max) throws -> [WebhookRecord] {
        try sql.rows("SELECT \(columns) FROM webhook WHERE id > ? ORDER BY id LIMIT ?", [.integer(after), .integer(Int64(limit))])
            .map(WebhookRecord.init(row:))
    }

    /// Stores the subscription; returns it with the ID the database gave it.
    func inserted(_ sql: any StoreTransaction) throws -> WebhookRecord {
        let row = try sql.insertedRow(
            "INSERT INTO webhook (url, secret, events, subjects, created_ms) VALUES (?, ?, ?, ?, ?) RETURNING \(Self.columns)",
            [.text(url), .text(secret), .text(events), .text(subjects), .integer(createdMs)], storing: "a webhook"
        )
        return try WebhookRecord(row: row)
    }
}
