import Foundation
import GRDB
import ScanContract

/// A `floor_plan` row: a floor's plan image.
struct FloorPlanRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "floor_plan"

    var floorID: Int64
    var format: String
    var image: Data
    var updatedMs: Int64

    enum CodingKeys: String, CodingKey {
        case floorID = "floor_id", format, image, updatedMs = "updated_ms"
    }

    init(floorID: Int64, format: PlanImageFormat, image: Data, updated: Date) {
        self.floorID = floorID
        self.format = format.rawValue
        self.image = image
        updatedMs = updated.milliseconds
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
