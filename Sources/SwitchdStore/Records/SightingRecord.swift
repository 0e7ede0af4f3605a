import Foundation
import GRDB
import ScanContract

/// A `sighting` row: one scanner's window of one tag or one registered beacon.
struct SightingRecord: Codable, FetchableRecord, RowIDRecord {
    static let databaseTableName = "sighting"

    var id: Int64?
    var scannerID: String
    var tagID: Int64?
    var beaconID: Int64?
    var windowStartMs: Int64
    var windowEndMs: Int64
    var count: Int
    var medianRSSI: Double
    var maxRSSI: Int

    enum CodingKeys: String, CodingKey {
        case id, scannerID = "scanner_id", tagID = "tag_id", beaconID = "beacon_id", windowStartMs = "window_start_ms"
        case windowEndMs = "window_end_ms", count, medianRSSI = "median_rssi", maxRSSI = "max_rssi"
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let scannerID = Column(CodingKeys.scannerID)
        static let tagID = Column(CodingKeys.tagID)
        static let beaconID = Column(CodingKeys.beaconID)
        static let windowEndMs = Column(CodingKeys.windowEndMs)
    }

    init(_ sighting: Sighting, scannerID: ScannerID, tagID: Int64?, beaconID: Int64?) {
        self.scannerID = scannerID.rawValue
        self.tagID = tagID
        self.beaconID = beaconID
        windowStartMs = sighting.windowStart.milliseconds
        windowEndMs = sighting.windowEnd.milliseconds
        count = sighting.count
        medianRSSI = sighting.medianRSSI
        maxRSSI = sighting.maxRSSI
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` for a beacon's sighting or a bad scanner ID.
    func storedSighting() throws -> StoredSighting {
        guard let tagID else { throw StoreError.corruptRow("sighting \(id ?? 0) is not of a tag") }
        return StoredSighting(
            id: id ?? 0, tagID: tagID, scannerID: try storedScannerID(scannerID), windowStart: Date(milliseconds: windowStartMs),
            windowEnd: Date(milliseconds: windowEndMs), count: count, medianRSSI: medianRSSI, maxRSSI: maxRSSI
        )
    }
}
