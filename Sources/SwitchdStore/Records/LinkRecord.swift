import ScanContract

/// A `link` row, read as a ``Link``; through GRDB, or a ``StoreRow`` on either database.
struct LinkRecord {
    var id: Int64?
    var fromID: Int64
    var toID: Int64
    var kind: String
    var distanceMetres: Double

    enum CodingKeys: String, CodingKey {
        case id, fromID = "from_id", toID = "to_id", kind, distanceMetres = "distance_metres"
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

    /// - Throws: ``StoreError/corruptRow(_:)`` for a column missing or of another kind.
    init(row: StoreRow) throws {
        id = try row.int64("id")
        fromID = try row.int64("from_id")
        toID = try row.int64("to_id")
        kind = try row.string("kind")
        distanceMetres = try row.double("distance_metres")
    }

    static let columns = "id, from_id, to_id, kind, distance_metres"

    /// Links ordered by ID, on either database; only those touching `locationID` when given.
    static func fetchLinks(_ sql: any StoreTransaction, touching locationID: Int64? = nil) throws -> [Link] {
        let rows = if let locationID {
            try sql.rows("SELECT \(columns) FROM link WHERE from_id = ? OR to_id = ? ORDER BY id", [.integer(locationID), .integer(locationID)])
        } else {
            try sql.rows("SELECT \(columns) FROM link ORDER BY id", [])
        }
        return try rows.map { try LinkRecord(row: $0).link() }
    }

    /// The link, or nil.
    static func fetchLink(_ sql: any StoreTransaction, id: Int64) throws -> Link? {
        try sql.row("SELECT \(columns) FROM link WHERE id = ?", [.integer(id)]).map { try LinkRecord(row: $0).link() }
    }

    /// The link joining `a` and `b` either way, if any.
    static func joining(_ sql: any StoreTransaction, _ a: Int64, _ b: Int64) throws -> Int64? {
        try sql.row(
            "SELECT id FROM link WHERE (from_id = ? AND to_id = ?) OR (from_id = ? AND to_id = ?)", [.integer(a), .integer(b), .integer(b), .integer(a)]
        )?.int64("id")
    }

    /// Stores the link and returns it with its new ID.
    func inserted(_ sql: any StoreTransaction) throws -> Link {
        guard let row = try sql.row(
            "INSERT INTO link (from_id, to_id, kind, distance_metres) VALUES (?, ?, ?, ?) RETURNING \(Self.columns)",
            [.integer(fromID), .integer(toID), .text(kind), .real(distanceMetres)]
        ) else { throw StoreError.corruptRow("inserting a link returned no row") }
        return try LinkRecord(row: row).link()
    }
}
