import Foundation
import GRDB
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
        return try await write { db in
            guard try !ScannerRecord.exists(db, key: new.id.rawValue) else {
                throw StoreError.conflict("scanner \(new.id) already exists")
            }
            try ScannerRecord(scanner).insert(db)
            var initial = ScanSwitch.initial(for: scanner.id, at: Date(milliseconds: now.milliseconds))
            initial.revision = try Self.firstRevision(of: scanner.id, in: db)
            try SwitchRevisionRecord(initial).insert(db)
            return scanner
        }
    }

    /// Every scanner, ordered by ID.
    package func scanners() async throws -> [ScanContract.Scanner] {
        try await read { db in
            try ScannerRecord.order(ScannerRecord.Columns.id).fetchAll(db).map { try $0.scanner() }
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown scanner.
    package func scanner(_ id: ScannerID) async throws -> ScanContract.Scanner {
        try await read { db in
            guard let record = try ScannerRecord.fetchOne(db, key: id.rawValue) else { throw StoreError.notFound("no scanner \(id)") }
            return try record.scanner()
        }
    }
}
