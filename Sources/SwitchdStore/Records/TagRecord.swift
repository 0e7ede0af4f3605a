import Foundation
import ScanContract

/// A `tag` row, read as a ``Tag`` and written the same way on either database. `metadata` is
/// JSON text with sorted keys, as for beacons.
struct TagRecord {
    var id: Int64?
    var name: String
    var identity: String
    var txPower: Int
    var missing: Bool
    var missingHeard: Bool
    var height: Double
    var metadata: String

    /// - Throws: when the metadata cannot be encoded.
    init(_ tag: Tag, missingHeard: Bool = false) throws {
        id = tag.id == 0 ? nil : tag.id
        name = tag.name
        identity = tag.identity.key
        txPower = tag.txPower
        missing = tag.missing
        self.missingHeard = missingHeard
        height = tag.height
        metadata = String(decoding: try JSONCoding.encoder().encode(tag.metadata), as: UTF8.self)
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` for a column missing or of another kind.
    init(row: StoreRow) throws {
        id = try row.int64("id")
        name = try row.string("name")
        identity = try row.string("identity")
        txPower = try row.int("tx_power")
        missing = try row.bool("missing")
        missingHeard = try row.bool("missing_heard")
        height = try row.double("height")
        metadata = try row.string("metadata")
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` when the identity or metadata is not what switchd writes.
    func tag() throws -> Tag {
        let id = id ?? 0
        guard let identity = try? TagIdentity(key: identity),
              let decoded = try? JSONDecoder().decode([String: String].self, from: Data(metadata.utf8)) else {
            throw StoreError.corruptRow("tag \(id) has an unreadable identity or metadata")
        }
        return Tag(id: id, name: name, identity: identity, txPower: txPower, missing: missing, height: height, metadata: decoded)
    }

    static let columns = "id, name, identity, tx_power, missing, missing_heard, height, metadata"

    /// Tags ordered by ID, the first `limit`. `filter` is an SQL condition on `tag` with a `?` per
    /// value, or empty for all.
    static func fetchAll(_ sql: any StoreTransaction, filter: String = "", values: [StoreValue] = [], limit: Int = .max) throws -> [TagRecord] {
        let condition = filter.isEmpty ? "" : "WHERE \(filter)"
        return try sql.rows("SELECT \(columns) FROM tag \(condition) ORDER BY id LIMIT ?", values + [.integer(Int64(limit))]).map(TagRecord.init(row:))
    }

    /// The tag with this ID, or nil.
    static func fetch(_ sql: any StoreTransaction, id: Int64) throws -> TagRecord? {
        try fetchAll(sql, filter: "id = ?", values: [.integer(id)]).first
    }

    /// The tag registered with this identity, or nil.
    static func fetch(_ sql: any StoreTransaction, identity: TagIdentity) throws -> TagRecord? {
        try fetchAll(sql, filter: "identity = ?", values: [.text(identity.key)]).first
    }

    /// Stores a new tag and returns it with its ID.
    func inserted(_ sql: any StoreTransaction) throws -> TagRecord {
        guard let row = try sql.row(
            "INSERT INTO tag (name, identity, tx_power, missing, missing_heard, height, metadata) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
            fieldValues
        ) else { throw StoreError.corruptRow("inserting a tag returned no row") }
        var inserted = self
        inserted.id = try row.int64("id")
        return inserted
    }

    /// Writes every field of tag ``id`` but the ID.
    func update(_ sql: any StoreTransaction) throws {
        try sql.execute(
            "UPDATE tag SET name = ?, identity = ?, tx_power = ?, missing = ?, missing_heard = ?, height = ?, metadata = ? WHERE id = ?",
            fieldValues + [StoreValue(id)]
        )
    }

    private var fieldValues: [StoreValue] {
        [.text(name), .text(identity), StoreValue(txPower), .boolean(missing), .boolean(missingHeard), .real(height), .text(metadata)]
    }
}
