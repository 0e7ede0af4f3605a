import Foundation
import ScanContract

/// A `sighting` row: one scanner's window of one tag or one registered beacon, read and written
/// the same way on either database.
struct SightingRecord {
    var id: Int64?
    var scannerID: String
    var tagID: Int64?
    var beaconID: Int64?
    var windowStartMs: Int64
    var windowEndMs: Int64
    var count: Int
    var medianRSSI: Double
    var maxRSSI: Int

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

    /// - Throws: ``StoreError/corruptRow(_:)`` for a column missing or of another kind.
    init(row: StoreRow) throws {
        id = try row.int64("id")
        scannerID = try row.string("scanner_id")
        tagID = try row.optionalInt64("tag_id")
        beaconID = try row.optionalInt64("beacon_id")
        windowStartMs = try row.int64("window_start_ms")
        windowEndMs = try row.int64("window_end_ms")
        count = try row.int("count")
        medianRSSI = try row.double("median_rssi")
        maxRSSI = try row.int("max_rssi")
    }

    /// The tag's sightings, newest window first, at most `limit`.
    static func newestOfTag(_ sql: any StoreTransaction, _ tagID: Int64, limit: Int) throws -> [SightingRecord] {
        try sql.rows("""
            SELECT id, scanner_id, tag_id, beacon_id, window_start_ms, window_end_ms, count, median_rssi, max_rssi FROM sighting
            WHERE tag_id = ? ORDER BY window_end_ms DESC, id DESC LIMIT ?
            """, [.integer(tagID), StoreValue(limit)]).map(SightingRecord.init(row:))
    }

    /// Stores the sighting and returns its ID.
    func inserted(_ sql: any StoreTransaction) throws -> Int64 {
        guard let row = try sql.row("""
            INSERT INTO sighting (scanner_id, tag_id, beacon_id, window_start_ms, window_end_ms, count, median_rssi, max_rssi)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
            """, [
                .text(scannerID), StoreValue(tagID), StoreValue(beaconID), .integer(windowStartMs), .integer(windowEndMs),
                StoreValue(count), .real(medianRSSI), StoreValue(maxRSSI),
            ]) else { throw StoreError.corruptRow("inserting a sighting returned no row") }
        return try row.int64("id")
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
