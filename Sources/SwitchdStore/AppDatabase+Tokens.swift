import Foundation
import GRDB
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
        return try await write { db in
            guard try TokenRecord.withHash(db, hash) == nil else {
                throw StoreError.conflict("that token is already stored")
            }
            var inserted = record
            try inserted.insert(db)
            return try inserted.tokenInfo()
        }
    }

    /// Every token, revoked ones too, by ID.
    package func tokens() async throws -> [TokenInfo] {
        try await read { db in
            try TokenRecord.order(TokenRecord.Columns.id).fetchAll(db).map { try $0.tokenInfo() }
        }
    }

    /// The stored token whose hash is `hash`, or nil.
    package func tokenInfo(hash: [UInt8]) async throws -> TokenInfo? {
        try await read { db in try TokenRecord.withHash(db, hash)?.tokenInfo() }
    }

    /// Marks a token revoked; revoking it again keeps the first time.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown ID.
    package func revokeToken(_ id: Int64, at now: Date) async throws -> TokenInfo {
        try await write { db in
            try TokenRecord.filter(key: id).filter(TokenRecord.Columns.revokedMs == nil)
                .updateAll(db, TokenRecord.Columns.revokedMs.set(to: now.milliseconds))
            guard let record = try TokenRecord.fetchOne(db, key: id) else { throw StoreError.notFound("no token \(id)") }
            return try record.tokenInfo()
        }
    }

    /// The token not revoked whose stored hash is `hash`, with that hash, or nil. Found through
    /// the unique index on the hash: one lookup whatever the number of tokens stored.
    package func activeToken(hash: [UInt8]) async throws -> ActiveTokenHash? {
        try await read { db in
            guard let record = try TokenRecord.withHash(db, hash), record.revokedMs == nil else { return nil }
            return ActiveTokenHash(info: try record.tokenInfo(), hash: Array(record.hash))
        }
    }

    /// Whether any admin token can still be used.
    package func hasActiveAdminToken() async throws -> Bool {
        try await read { db in
            try TokenRecord.filter(TokenRecord.Columns.role == TokenRole.admin.rawValue && TokenRecord.Columns.revokedMs == nil).isEmpty(db) == false
        }
    }
}
