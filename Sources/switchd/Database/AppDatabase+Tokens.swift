import Foundation
import GRDB
import ScanContract

/// A token that may be used: who it names and the hash to compare a presented token with.
struct ActiveToken: Sendable {
    var principal: Principal
    var hash: TokenHash
}

extension AppDatabase {
    /// Stores a new token under the hash of `token`.
    ///
    /// - Throws: ``StoreError/invalidField(_:)`` for a bad name or a scanner ID where it does not
    ///   belong (``NewToken/validate()``); ``StoreError/conflict(_:)`` when a token with this hash
    ///   is already stored.
    func issueToken(_ new: NewToken, token: BearerToken, at now: Date) async throws -> TokenInfo {
        do {
            try new.validate()
        } catch {
            throw StoreError.invalidField(error)
        }
        let hash = token.hash
        let created = Date(milliseconds: now.milliseconds)
        return try await writer.write { db in
            guard try Self.tokenRow(hash: hash, in: db) == nil else {
                throw StoreError.conflict("that token is already stored")
            }
            try db.execute(
                sql: "INSERT INTO token (name, role, scanner_id, hash, created_ms) VALUES (?, ?, ?, ?, ?)",
                arguments: [new.effectiveName, new.role.rawValue, new.scannerID?.rawValue, Data(hash.bytes), created.milliseconds]
            )
            return TokenInfo(
                id: db.lastInsertedRowID, name: new.effectiveName, role: new.role, scannerID: new.scannerID, created: created, revoked: nil
            )
        }
    }

    /// Every token, revoked ones too, by ID.
    func tokens() async throws -> [TokenInfo] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: "SELECT \(Self.tokenColumns) FROM token ORDER BY id").map(Self.tokenInfo)
        }
    }

    /// The stored token whose hash is `token`'s, or nil.
    func tokenInfo(for token: BearerToken) async throws -> TokenInfo? {
        let hash = token.hash
        return try await writer.read { db in try Self.tokenRow(hash: hash, in: db) }
    }

    /// Marks a token revoked; revoking it again keeps the first time.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown ID.
    func revokeToken(_ id: Int64, at now: Date) async throws -> TokenInfo {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE token SET revoked_ms = ? WHERE id = ? AND revoked_ms IS NULL", arguments: [now.milliseconds, id]
            )
            guard let row = try Row.fetchOne(db, sql: "SELECT \(Self.tokenColumns) FROM token WHERE id = ?", arguments: [id]) else {
                throw StoreError.notFound("no token \(id)")
            }
            return try Self.tokenInfo(row)
        }
    }

    /// The tokens not revoked, with their hashes, for ``TokenAuthenticator``.
    func activeTokens() async throws -> [ActiveToken] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: "SELECT \(Self.tokenColumns), hash FROM token WHERE revoked_ms IS NULL").map { row in
                let info = try Self.tokenInfo(row)
                let hash: Data = row["hash"]
                return ActiveToken(
                    principal: Principal(tokenID: info.id, name: info.name, role: info.role, scannerID: info.scannerID),
                    hash: TokenHash(bytes: Array(hash))
                )
            }
        }
    }

    /// Whether any admin token can still be used.
    func hasActiveAdminToken() async throws -> Bool {
        try await writer.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM token WHERE role = 'admin' AND revoked_ms IS NULL)") ?? false
        }
    }

    private static let tokenColumns = "id, name, role, scanner_id, created_ms, revoked_ms"

    private static func tokenRow(hash: TokenHash, in db: Database) throws -> TokenInfo? {
        try Row.fetchOne(db, sql: "SELECT \(tokenColumns) FROM token WHERE hash = ?", arguments: [Data(hash.bytes)]).map(tokenInfo)
    }

    private static func tokenInfo(_ row: Row) throws -> TokenInfo {
        let roleText: String = row["role"]
        guard let role = TokenRole(rawValue: roleText) else {
            throw StoreError.corruptRow("stored token role \"\(roleText)\" is not admin, scanner or reader")
        }
        let scannerText: String? = row["scanner_id"]
        let revoked: Int64? = row["revoked_ms"]
        return TokenInfo(
            id: row["id"], name: row["name"], role: role, scannerID: try scannerText.map(storedScannerID),
            created: Date(milliseconds: row["created_ms"]), revoked: revoked.map(Date.init(milliseconds:))
        )
    }
}
