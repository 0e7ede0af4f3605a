import Foundation
import ScanContract

/// A token that may be used: what it is, and the SHA-256 a presented token's hash is compared with.
package struct ActiveTokenHash: Sendable {
    package var info: TokenInfo
    package var hash: [UInt8]
}

extension AppDatabase {
    /// Stores a new token under `hash`, the SHA-256 of its secret (the secret is never stored).
    ///
    /// - Throws: ``StoreError/invalidField(_:)`` for a bad name or a scanner ID where it does not
    ///   belong (``NewToken/validate()``); ``StoreError/conflict(_:)`` when a token with this hash
    ///   is already stored.
    package func issueToken(_ new: NewToken, hash: [UInt8], at now: Date) async throws -> TokenInfo {
        try validate(new.validate)
        let record = TokenRecord(new, hash: hash, created: now)
        return try await writeStatements { sql in
            guard try TokenRecord.withHash(sql, hash) == nil else {
                throw StoreError.conflict("that token is already stored")
            }
            return try record.inserted(sql).tokenInfo()
        }
    }

    /// Makes sure a scanner token for `new` would speak for a registered scanner; any other
    /// token passes. Run before issuing one through the API or the command line, so that a typo
    /// in a scanner ID is caught when the token is made, not when scannerd is refused later.
    ///
    /// - Throws: ``StoreError/invalidField(_:)`` naming `scannerID` when no scanner has that ID.
    package func checkScannerRegistered(for new: NewToken) async throws {
        guard new.role == .scanner, let id = new.scannerID else { return }
        try await readStatements { sql in
            guard try sql.row("SELECT id FROM scanner WHERE id = ?", [.text(id.rawValue)]) != nil else {
                throw StoreError.invalidField(ValidationError(
                    field: "scannerID", reason: "names no registered scanner (\(id)): register it first (POST /v1/scanners)"
                ))
            }
        }
    }

    /// Every token, revoked ones too, by ID.
    package func tokens() async throws -> [TokenInfo] {
        try await readStatements { sql in try TokenRecord.all(sql).map { try $0.tokenInfo() } }
    }

    /// The stored token whose hash is `hash`, or nil.
    package func tokenInfo(hash: [UInt8]) async throws -> TokenInfo? {
        try await readStatements { sql in try TokenRecord.withHash(sql, hash)?.tokenInfo() }
    }

    /// Marks a token revoked; revoking it again keeps the first time.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown ID.
    package func revokeToken(_ id: Int64, at now: Date) async throws -> TokenInfo {
        try await writeStatements { sql in
            try sql.execute("UPDATE token SET revoked_ms = ? WHERE id = ? AND revoked_ms IS NULL", [.integer(now.milliseconds), .integer(id)])
            guard let record = try TokenRecord.withID(sql, id) else { throw StoreError.notFound("no token \(id)") }
            return try record.tokenInfo()
        }
    }

    /// The token not revoked whose stored hash is `hash`, with that hash, or nil. Found through
    /// the unique index on the hash: one lookup whatever the number of tokens stored.
    package func activeToken(hash: [UInt8]) async throws -> ActiveTokenHash? {
        try await readStatements { sql in
            guard let record = try TokenRecord.withHash(sql, hash), record.revokedMs == nil else { return nil }
            return ActiveTokenHash(info: try record.tokenInfo(), hash: record.hash)
        }
    }

    /// Whether any admin token can still be used.
    package func hasActiveAdminToken() async throws -> Bool {
        try await readStatements { sql in
            try sql.row("SELECT 1 AS found FROM token WHERE role = ? AND revoked_ms IS NULL LIMIT 1", [.text(TokenRole.admin.rawValue)]) != nil
        }
    }

    /// Throws ``StoreError/tokenRevoked(_:)`` unless token `id` is stored and not revoked: the
    /// check a write makes in its own transaction for a request let in by a remembered token
    /// (``ingest(_:stopEarly:)``), on both databases.
    static func requireActiveToken(_ id: Int64, in sql: any StoreTransaction) throws {
        guard try sql.row("SELECT 1 AS active FROM token WHERE id = ? AND revoked_ms IS NULL", [.integer(id)]) != nil else {
            throw StoreError.tokenRevoked(id)
        }
    }
}
