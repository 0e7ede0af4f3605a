import GRDB
import ScanContract

/// A `link` row, read as a ``Link``.
struct LinkRecord: Codable, FetchableRecord, RowIDRecord {
    static let databaseTableName = "link"

    var id: Int64?
    var fromID: Int64
    var toID: Int64
    var kind: String
    var distanceMetres: Double

    enum CodingKeys: String, CodingKey {
        case id, fromID = "from_id", toID = "to_id", kind, distanceMetres = "distance_metres"
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let fromID = Column(CodingKeys.fromID)
        static let toID = Column(CodingKeys.toID)
    }

    init(_ new: NewLink, distanceMetres: Double) {
        fromID = new.from
        toID = new.to
        kind = new.kind.rawValue
        self.distanceMetres = distanceMetres
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` for a kind switchd does not write.
    func link() throws -> Link {
        guard let linkKind = LinkKind(rawValue: kind) else { throw StoreError.corruptRow("link \(id ?? 0) has kind \"\(kind)\"") }
        return Link(id: id ?? 0, from: fromID, to: toID, kind: linkKind, distanceMetres: distanceMetres)
    }

    /// Links ordered by ID; only those touching `locationID` when given.
    static func fetchLinks(_ db: Database, touching locationID: Int64? = nil) throws -> [Link] {
        var request = LinkRecord.order(Columns.id)
        if let locationID {
            request = request.filter(Columns.fromID == locationID || Columns.toID == locationID)
        }
        return try request.fetchAll(db).map { try $0.link() }
    }

    /// The link joining `a` and `b` either way, if any.
    static func joining(_ db: Database, _ a: Int64, _ b: Int64) throws -> Int64? {
        try Int64.fetchOne(db, sql: """
            SELECT id FROM link WHERE min(from_id, to_id) = min(?, ?) AND max(from_id, to_id) = max(?, ?)
            """, arguments: [a, b, a, b])
    }
}
