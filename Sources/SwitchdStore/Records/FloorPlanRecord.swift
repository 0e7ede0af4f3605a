import Foundation
import ScanContract

/// A `floor_plan` row: a floor's plan image, read and written the same way on either database.
struct FloorPlanRecord {
    var floorID: Int64
    var format: String
    var image: Data
    var updatedMs: Int64

    init(floorID: Int64, format: PlanImageFormat, image: Data, updated: Date) {
        self.init(floorID: floorID, format: format.rawValue, image: image, updatedMs: updated.milliseconds)
    }

    private init(floorID: Int64, format: String, image: Data, updatedMs: Int64) {
        self.floorID = floorID
        self.format = format
        self.image = image
        self.updatedMs = updatedMs
    }

    /// The floor's plan, or nil.
    static func ofFloor(_ sql: any StoreTransaction, _ floorID: Int64) throws -> FloorPlanRecord? {
        try sql.row("SELECT format, image, updated_ms FROM floor_plan WHERE floor_id = ?", [.integer(floorID)]).map { row in
            FloorPlanRecord(floorID: floorID, format: try row.string("format"), image: Data(try row.bytes("image")), updatedMs: try row.int64("updated_ms"))
        }
    }

    /// Stores the plan, replacing the floor's earlier one.
    func upsert(_ sql: any StoreTransaction) throws {
        try sql.execute("""
            INSERT INTO floor_plan (floor_id, format, image, updated_ms) VALUES (?, ?, ?, ?)
            ON CONFLICT (floor_id) DO UPDATE SET format = excluded.format, image = excluded.image, updated_ms = excluded.updated_ms
            """, [.integer(floorID), .text(format), .bytes([UInt8](image)), .integer(updatedMs)])
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` for a format switchd does not know.
    func storedPlan() throws -> StoredPlan {
        guard let format = PlanImageFormat(rawValue: format) else {
            throw StoreError.corruptRow("floor_plan \(floorID): format \(self.format)")
        }
        return StoredPlan(format: format, image: image, updated: Date(milliseconds: updatedMs))
    }
}

/// A floor's plan image as stored.
package struct StoredPlan: Sendable {
    package var format: PlanImageFormat
    package var image: Data
    package var updated: Date
}
