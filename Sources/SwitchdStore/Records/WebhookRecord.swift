import Foundation
import GRDB
import ScanContract

/// A `webhook` row. `events` is the kinds sent, comma-separated; `secret` is kept as given,
/// since deliveries are signed with it.
struct WebhookRecord: Codable, FetchableRecord, RowIDRecord {
    static let databaseTableName = "webhook"

    var id: Int64?
    var url: String
    var secret: String
    var events: String
    var createdMs: Int64

    enum CodingKeys: String, CodingKey {
        case id, url, secret, events, createdMs = "created_ms"
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
    }

    init(_ new: NewWebhook, secret: String, created: Date) {
        url = new.url
        self.secret = secret
        let kinds = Set(new.events ?? PresenceEventKind.allCases)
        events = PresenceEventKind.allCases.filter(kinds.contains).map(\.rawValue).joined(separator: ",")
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

    func webhook(_ counts: WebhookDeliveryCounts) throws -> Webhook {
        Webhook(id: id ?? 0, url: url, events: try kinds(), created: Date(milliseconds: createdMs), deliveries: counts)
    }
}
