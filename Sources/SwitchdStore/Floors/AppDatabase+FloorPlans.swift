import Foundation
import ScanContract

extension AppDatabase {
    /// Stores `image` as the floor's plan, replacing any earlier one, and returns the floor.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown floor.
    package func setPlan(ofFloor id: Int64, format: PlanImageFormat, image: Data, at now: Date) async throws -> Floor {
        try await writeStatements { sql in
            try sql.lock(Self.surveyLock)
            guard try FloorRecord.exists(sql, id: id) else { throw StoreError.notFound("no floor \(id)") }
            try FloorPlanRecord(floorID: id, format: format, image: image, updated: now).upsert(sql)
            return try FloorRecord.fetchFloor(sql, id: id)
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown floor or one without a plan;
    ///   ``StoreError/corruptRow(_:)`` for a stored format switchd does not know.
    package func plan(ofFloor id: Int64) async throws -> StoredPlan {
        try await readStatements { sql in
            guard let record = try FloorPlanRecord.ofFloor(sql, id) else {
                let exists = try FloorRecord.exists(sql, id: id)
                throw StoreError.notFound(exists ? "floor \(id) has no plan" : "no floor \(id)")
            }
            return try record.storedPlan()
        }
    }
}
