import Foundation
import GRDB
import ScanContract

extension AppDatabase {
    /// Stores `image` as the floor's plan, replacing any earlier one, and returns the floor.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown floor.
    package func setPlan(ofFloor id: Int64, format: PlanImageFormat, image: Data, at now: Date) async throws -> Floor {
        try await write { db in
            guard try FloorRecord.exists(db, key: id) else { throw StoreError.notFound("no floor \(id)") }
            try FloorPlanRecord(floorID: id, format: format, image: image, updated: now).upsert(db)
            return try FloorRecord.fetchFloor(SQLiteTransaction(db: db), id: id)
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown floor or one without a plan;
    ///   ``StoreError/corruptRow(_:)`` for a stored format switchd does not know.
    package func plan(ofFloor id: Int64) async throws -> StoredPlan {
        try await read { db in
            guard let record = try FloorPlanRecord.fetchOne(db, key: id) else {
                let exists = try FloorRecord.exists(db, key: id)
                throw StoreError.notFound(exists ? "floor \(id) has no plan" : "no floor \(id)")
            }
            return try record.storedPlan()
        }
    }
}
