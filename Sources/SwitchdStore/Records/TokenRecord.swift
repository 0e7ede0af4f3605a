import Foundation
import GRDB
import ScanContract

/// A `token` row, read as a ``TokenInfo``; `hash` is the SHA-256 of the token, never the token.
struct TokenRecord: Codable, FetchableRecord, RowIDRecord {
    static let databaseTableName = "token"

    var id: Int64?
    var name: String
    var role: String
    var scannerID: String?
    var hash: Data
    var createdMs: Int64
    var revokedMs: Int64?

    enum CodingKeys: String, CodingKey {
        case id, name, role, scannerID = "scanner_id", hash, createdMs = "created_ms", revokedMs = "revoked_ms"
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let role = Column(CodingKeys.role)
        static let hash = Column(CodingKeys.hash)
        static let revokedMs = Column(CodingKeys.revokedMs)
    }

    init(_ new: NewToken, hash: [UInt8], created: Date) {
        name = new.effectiveName
        role = new.role.rawValue
        scannerID = new.scannerID?.rawValue
        self.hash = Data(hash)
        createdMs = created.milliseconds
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

    static func withHash(_ db: Database, _ hash: [UInt8]) throws -> TokenRecord? {
        try TokenRecord.filter(Columns.hash == Data(hash)).fetchOne(db)
    }
}
