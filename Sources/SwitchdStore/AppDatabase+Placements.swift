import Foundation
import GRDB
import Positioning
import ScanContract

extension AppDatabase {
    /// Places a scanner (it becomes a fixed scanner) or moves it; a receive offset it had
    /// estimated is kept.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown scanner; ``StoreError/invalidField(_:)``
    ///   naming `floorID` for an unknown floor, or what ``NewScannerPlacement/validate()`` refused.
    package func placeScanner(_ scannerID: ScannerID, _ new: NewScannerPlacement) async throws -> ScannerPlacement {
        try validate(new.validate)
        return try await write { db in
            guard try ScannerRecord.exists(db, key: scannerID.rawValue) else { throw StoreError.notFound("no scanner \(scannerID)") }
            guard try FloorRecord.exists(db, key: new.floorID) else {
                throw StoreError.invalidField(ValidationError(field: "floorID", reason: "no floor \(new.floorID)"))
            }
            let record = ScannerPlacementRecord(scannerID, new, kept: try ScannerPlacementRecord.fetchOne(db, key: scannerID.rawValue))
            try record.save(db)
            return try record.placement()
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown scanner or one not placed.
    package func placement(of scannerID: ScannerID) async throws -> ScannerPlacement {
        try await read { db in
            guard let record = try ScannerPlacementRecord.fetchOne(db, key: scannerID.rawValue) else {
                throw StoreError.notFound("scanner \(scannerID) is not a placed fixed scanner")
            }
            return try record.placement()
        }
    }

    /// Every fixed scanner's placement, by scanner ID; those of one floor when given.
    package func placements(onFloor floorID: Int64? = nil) async throws -> [ScannerPlacement] {
        try await read { db in
            var request = ScannerPlacementRecord.order(ScannerPlacementRecord.Columns.scannerID)
            if let floorID { request = request.filter(ScannerPlacementRecord.Columns.floorID == floorID) }
            return try request.fetchAll(db).map { try $0.placement() }
        }
    }

    /// Makes the scanner a roaming one again; its sightings stay.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` when it was not placed.
    package func unplaceScanner(_ scannerID: ScannerID) async throws {
        try await write { db in
            guard try ScannerPlacementRecord.deleteOne(db, key: scannerID.rawValue) else {
                throw StoreError.notFound("scanner \(scannerID) is not a placed fixed scanner")
            }
        }
    }

    /// Sightings of registered beacons the estimate of a receive offset reads, newest first.
    static let calibrationSightings = 500

    /// Re-estimates `scannerID`'s receive offset from its latest sightings of registered beacons
    /// on its floor (``ReceiveOffsetEstimate``), each window's RSSI its `statistic` less the
    /// statistic's mean gap above the median over those sightings
    /// (``TagRSSIStatistic/meanAboveMedian(_:)``): the beacons' measured powers are declared in
    /// the median's sense, so the offset is the receiver's own (6 dB hot: about −6 dB) whichever
    /// figure switchd reads. Leaves the placement as it is when there are none.
    static func recalibrate(_ scannerID: ScannerID, reading statistic: TagRSSIStatistic, in db: Database) throws {
        guard var placement = try ScannerPlacementRecord.fetchOne(db, key: scannerID.rawValue) else { return }
        let rows = try Row.fetchAll(db, sql: """
            SELECT sighting.count, sighting.median_rssi, sighting.max_rssi, beacon.x, beacon.y, beacon.z, beacon.measured_power
            FROM sighting JOIN beacon ON beacon.id = sighting.beacon_id
            WHERE sighting.scanner_id = ? AND beacon.floor_id = ?
            ORDER BY sighting.id DESC LIMIT ?
            """, arguments: [scannerID.rawValue, placement.floorID, calibrationSightings])
        let windows = rows.map { (count: $0["count"] as Int, median: $0["median_rssi"] as Double, strongest: Double($0["max_rssi"] as Int)) }
        let gap = statistic.meanAboveMedian(windows)
        let samples = zip(rows, windows).map { row, window in
            let dx = placement.x - (row["x"] as Double), dy = placement.y - (row["y"] as Double), dz = placement.height - (row["z"] as Double)
            return ReceiveOffsetSample(
                rssi: statistic.value(median: window.median, strongest: window.strongest) - gap, txPower: Double(row["measured_power"] as Int),
                distance: (dx * dx + dy * dy + dz * dz).squareRoot(), exponent: placement.pathLossExponent
            )
        }
        guard let estimate = ReceiveOffsetEstimate(samples) else { return }
        placement.estimatedReceiveOffset = estimate.offset
        placement.calibrationSamples = estimate.samples
        try placement.update(db)
    }
}
