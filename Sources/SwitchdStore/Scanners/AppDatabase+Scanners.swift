import Foundation
import ScanContract

extension AppDatabase {
    /// Registers a scanner with its switch off, at revision 1, or, when a scanner of that ID was
    /// deleted, one past its last revision (``deleteScanner(_:at:mqtt:)``).
    ///
    /// - Throws: ``StoreError/conflict(_:)`` when a scanner with that ID exists;
    ///   ``StoreError/invalidField(_:)`` for an empty or overlong name.
    package func createScanner(_ new: NewScanner, at now: Date) async throws -> ScanContract.Scanner {
        try validate(new.validate)
        let scanner = ScanContract.Scanner(id: new.id, name: new.name ?? new.id.rawValue)
        return try await writeStatements { sql in
            guard try Self.insertScanner(scanner, at: now, in: sql) else { throw StoreError.conflict("scanner \(new.id) already exists") }
            return scanner
        }
    }

    /// Registers `scanner` with its first switch, unless a scanner of that ID exists; returns
    /// whether it was registered. DO NOTHING rather than a look first: two instances creating one
    /// scanner at once cannot both see it missing.
    static func insertScanner(_ scanner: ScanContract.Scanner, at now: Date, in sql: any StoreTransaction) throws -> Bool {
        let inserted = try sql.row(
            "INSERT INTO scanner (id, name) VALUES (?, ?) ON CONFLICT (id) DO NOTHING RETURNING id", [.text(scanner.id.rawValue), .text(scanner.name)]
        )
        guard inserted != nil else { return false }
        var initial = ScanSwitch.initial(for: scanner.id, at: Date(milliseconds: now.milliseconds))
        initial.revision = try firstRevision(of: scanner.id, in: sql)
        try store(initial, in: sql)
        return true
    }

    /// Scanners ordered by ID (byte order on both databases), at most `limit` of those after `after`.
    package func scanners(after: String? = nil, limit: Int = .max) async throws -> [ScanContract.Scanner] {
        try await readStatements { sql in
            try sql.rows(
                "SELECT id, name FROM scanner WHERE id > ? ORDER BY id LIMIT ?", [.text(after ?? ""), .integer(Int64(limit))]
            ).map { try ScannerRecord(row: $0).scanner() }
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown scanner.
    package func scanner(_ id: ScannerID) async throws -> ScanContract.Scanner {
        try await readStatements { sql in
            guard let row = try sql.row("SELECT id, name FROM scanner WHERE id = ?", [.text(id.rawValue)]) else {
                throw StoreError.notFound("no scanner \(id)")
            }
            return try ScannerRecord(row: row).scanner()
        }
    }
}
