import Foundation
import ScanContract

/// A `token` row, read as a ``TokenInfo``; `hash` is the SHA-256 of the token, never the token.
/// Written and read through ``StoreTransaction`` in the SQL both databases speak.
struct TokenRecord {
    static let columns = "id, name, role, scanner_id, hash, created_ms, revoked_ms"

    var id: Int64?
    var name: String
    var role: String
    var scannerID: String?
    var hash: [UInt8]
    var createdMs: Int64
    var revokedMs: Int64?

    init(_ new: NewToken, hash: [UInt8], created: Date) {
        name = new.effectiveName
        role = new.role.rawValue
        scannerID = new.scannerID?.rawValue
        self.hash = hash
        createdMs = created.milliseconds
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` for a column missing or of another kind.
    init(row: StoreRow) throws {
        id = try row.int64("id")
        name = try row.string("name")
        role = try row.string("role")
        scannerID = try row.optionalString("scanner_id")
        hash = try row.bytes("hash")
        createdMs = try row.int64("created_ms")
        revokedMs = try row.optionalInt64("revoked_ms")
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` for a role or scanner ID switchd does not write.
    func tokenInfo() throws -> TokenInfo {
        guard let tokenRole = TokenRole(rawValue: role) else {
            throw StoreError.corruptRow("stored token role \"\(role)\" is not admin, scanner or reader")
        }
        return TokenInfo(
            id: id ?? 0, name: name, role: tokenRole, scannerID: try scannerID.map(storedScannerID),
            created: Date(milliseconds: createdMs), revoked: revokedMs.map(Date.init(milliseconds:))
        )
    }

    /// Stores the token; returns it with the ID the database gave it.
    func inserted(_ sql: any StoreTransaction) throws -> TokenRecord {
        guard let row = try sql.row("""
            INSERT INTO token (name, role, scanner_id, hash, created_ms, revoked_ms) VALUES (?, ?, ?, ?, ?, ?)
            RETURNING \(Self.columns)
            """, [.text(name), .text(role), StoreValue(scannerID), .bytes(hash), .integer(createdMs), StoreValue(revokedMs)])
        else {
            throw StoreError.corruptRow("storing a token returned no row")
        }
        return try TokenRecord(row: row)
    }

    static func withHash(_ sql: any StoreTransaction, _ hash: [UInt8]) throws -> TokenRecord? {
        try sql.row("SELECT \(columns) FROM token WHERE hash = ?", [.bytes(hash)]).map(TokenRecord.init(row:))
    }

    static func withID(_ sql: any StoreTransaction, _ id: Int64) throws -> TokenRecord? {
        try sql.row("SELECT \(columns) FROM token WHERE id = ?", [.integer(id)]).map(TokenRecord.init(row:))
    }

    static func all(_ sql: any StoreTransaction) throws -> [TokenRecord] {
        try sql.rows("SELECT \(columns) FROM token ORDER BY id", []).map(TokenRecord.init(row:))
    }
}
