import Foundation
import ScanContract

/// What redeeming an enrolment code came to. Only ``enrolled(_:)`` stored anything.
package enum EnrolmentOutcome: Sendable, Equatable {
    /// The code was good: it is now used, and this scanner token was issued.
    case enrolled(TokenInfo)
    /// No code has this hash.
    case unknown
    /// The code was used before, at this time.
    case used(Date)
    /// The code ended at this time, unused.
    case expired(Date)
    /// The scanner the code names was deleted after the code was made.
    case scannerGone(ScannerID)
}

extension AppDatabase {
    /// Stores a one-time enrolment code under `hash` (the SHA-256 of its normalised text), for the
    /// scanner `new` names, registering that scanner first when no scanner has its ID. Returns
    /// whether it registered the scanner, and when the code ends.
    ///
    /// - Throws: ``StoreError/invalidField(_:)`` for a bad name or expiry; ``StoreError/conflict(_:)``
    ///   when a code with this hash is stored (60 random bits: a generator fault, not chance).
    package func createEnrolmentCode(_ new: NewEnrolmentCode, hash: [UInt8], at now: Date) async throws -> (registered: Bool, expires: Date) {
        try validate(new.validate)
        let created = now.milliseconds
        let expires = created + Int64(new.effectiveExpiry) * 1000
        return try await writeStatements { sql in
            let registered = try Self.insertScanner(
                ScanContract.Scanner(id: new.scannerID, name: new.name ?? new.scannerID.rawValue), at: now, in: sql
            )
            guard try sql.row("SELECT id FROM enrolment_code WHERE hash = ?", [.bytes(hash)]) == nil else {
                throw StoreError.conflict("that enrolment code is already stored")
            }
            try sql.execute(
                "INSERT INTO enrolment_code (hash, scanner_id, name, created_ms, expires_ms) VALUES (?, ?, ?, ?, ?)",
                [.bytes(hash), .text(new.scannerID.rawValue), StoreValue(new.name), .integer(created), .integer(expires)]
            )
            return (registered, Date(milliseconds: expires))
        }
    }

    /// Redeems the code stored under `hash`: when it is unused, unexpired and its scanner still
    /// registered, marks it used and issues a scanner token stored under `tokenHash`, in one
    /// transaction (two redemptions at once: one wins, the other reads it used). Otherwise stores
    /// nothing and says why.
    package func redeemEnrolmentCode(hash: [UInt8], tokenHash: [UInt8], at now: Date) async throws -> EnrolmentOutcome {
        try await writeStatements { sql in
            guard let row = try sql.row(
                "SELECT id, scanner_id, expires_ms, used_ms FROM enrolment_code WHERE hash = ?", [.bytes(hash)]
            ) else {
                return .unknown
            }
            if let used = try row.optionalInt64("used_ms") { return .used(Date(milliseconds: used)) }
            let expires = try row.int64("expires_ms")
            if now.milliseconds >= expires { return .expired(Date(milliseconds: expires)) }
            let scannerID = try storedScannerID(try row.string("scanner_id"))
            guard try sql.row("SELECT id FROM scanner WHERE id = ?", [.text(scannerID.rawValue)]) != nil else {
                return .scannerGone(scannerID)
            }
            let new = NewToken(name: "scanner \(scannerID) (enrolled)", role: .scanner, scannerID: scannerID)
            let token = try TokenRecord(new, hash: tokenHash, created: now).inserted(sql)
            // `used_ms IS NULL` again: of two redemptions at once on PostgreSQL, the second updates nothing and rolls back.
            let marked = try sql.row(
                "UPDATE enrolment_code SET used_ms = ?, token_id = ? WHERE id = ? AND used_ms IS NULL RETURNING id",
                [.integer(now.milliseconds), .integer(token.id ?? 0), .integer(try row.int64("id"))]
            )
            guard marked != nil else { throw StoreError.conflict("the enrolment code was used at the same time") }
            return .enrolled(try token.tokenInfo())
        }
    }
}
