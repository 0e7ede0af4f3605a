import Foundation
import GRDB
import ScanContract

/// A floor's plan image as stored.
struct StoredPlan: Sendable {
    var format: PlanImageFormat
    var image: Data
    var updated: Date
}

extension AppDatabase {
    /// Stores `image` as the floor's plan, replacing any earlier one, and returns the floor.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown floor.
    func setPlan(ofFloor id: Int64, format: PlanImageFormat, image: Data, at now: Date) async throws -> Floor {
        try await writer.write { db in
            guard try Self.floorExists(id, in: db) else { throw StoreError.notFound("no floor \(id)") }
            try db.execute(
                sql: """
                    INSERT INTO floor_plan (floor_id, format, image, updated_ms) VALUES (?, ?, ?, ?)
                    ON CONFLICT (floor_id) DO UPDATE SET format = excluded.format, image = excluded.image, updated_ms = excluded.updated_ms
                    """,
                arguments: [id, format.rawValue, image, now.milliseconds]
            )
            return try Self.floor(id, in: db)
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown floor or one without a plan;
    ///   ``StoreError/corruptRow(_:)`` for a stored format switchd does not know.
    func plan(ofFloor id: Int64) async throws -> StoredPlan {
        try await writer.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT format, image, updated_ms FROM floor_plan WHERE floor_id = ?", arguments: [id]) else {
                let exists = try Self.floorExists(id, in: db)
                throw StoreError.notFound(exists ? "floor \(id) has no plan" : "no floor \(id)")
            }
            let formatName: String = row[0]
            guard let format = PlanImageFormat(rawValue: formatName) else {
                throw StoreError.corruptRow("floor_plan \(id): format \(formatName)")
            }
            return StoredPlan(format: format, image: row[1], updated: Date(milliseconds: row[2]))
        }
    }
}
