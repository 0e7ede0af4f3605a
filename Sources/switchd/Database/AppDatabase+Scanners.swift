import Foundation
import GRDB
import ScanContract

extension AppDatabase {
    /// Registers a scanner with its switch at revision 1, off.
    ///
    /// - Throws: ``StoreError/conflict(_:)`` when a scanner with that ID exists;
    ///   ``StoreError/invalidField(_:)`` for an empty or overlong name.
    func createScanner(_ new: NewScanner, at now: Date) async throws -> ScanContract.Scanner {
        do {
            try new.validate()
        } catch {
            throw StoreError.invalidField(error)
        }
        let scanner = ScanContract.Scanner(id: new.id, name: new.name ?? new.id.rawValue)
        return try await writer.write { db in
            guard try Self.scannerExists(new.id, in: db) == false else {
                throw StoreError.conflict("scanner \(new.id) already exists")
            }
            try Self.insertScanner(scanner, at: now, in: db)
            return scanner
        }
    }

    /// Every scanner, ordered by ID.
    func scanners() async throws -> [ScanContract.Scanner] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: "SELECT id, name FROM scanner ORDER BY id").map { row in
                ScanContract.Scanner(id: try storedScannerID(row[0]), name: row[1])
            }
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown scanner.
    func scanner(_ id: ScannerID) async throws -> ScanContract.Scanner {
        try await writer.read { db in
            guard let name = try String.fetchOne(db, sql: "SELECT name FROM scanner WHERE id = ?", arguments: [id.rawValue]) else {
                throw StoreError.notFound("no scanner \(id)")
            }
            return ScanContract.Scanner(id: id, name: name)
        }
    }

    static func scannerExists(_ id: ScannerID, in db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM scanner WHERE id = ?)", arguments: [id.rawValue]) ?? false
    }

    /// Inserts the scanner row and its first switch revision.
    static func insertScanner(_ scanner: ScanContract.Scanner, at now: Date, in db: Database) throws {
        try db.execute(sql: "INSERT INTO scanner (id, name) VALUES (?, ?)", arguments: [scanner.id.rawValue, scanner.name])
        try insertRevision(.initial(for: scanner.id, at: Date(milliseconds: now.milliseconds)), in: db)
    }
}
