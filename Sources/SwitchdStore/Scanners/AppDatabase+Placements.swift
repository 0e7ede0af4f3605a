import Foundation
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
        return try await writeStatements { sql in
            // The floor must still be there (survey writes take this lock first), and the kept
            // estimate must not be rewritten meanwhile by a recalibration (``recalibrate``).
            try sql.lock(Self.surveyLock)
            try sql.lock(Self.placementLock(scannerID))
            guard try sql.row("SELECT id FROM scanner WHERE id = ?", [.text(scannerID.rawValue)]) != nil else {
                throw StoreError.notFound("no scanner \(scannerID)")
            }
            guard try FloorRecord.exists(sql, id: new.floorID) else {
                throw StoreError.invalidField(ValidationError(field: "floorID", reason: "no floor \(new.floorID)"))
            }
            let record = ScannerPlacementRecord(scannerID, new, kept: try ScannerPlacementRecord.fetch(sql, of: scannerID))
            try record.upsert(sql)
            try Self.announceWatchedChange(in: sql)
            return try record.placement()
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown scanner or one not placed.
    package func placement(of scannerID: ScannerID) async throws -> ScannerPlacement {
        try await readStatements { sql in
            guard let record = try ScannerPlacementRecord.fetch(sql, of: scannerID) else {
                throw StoreError.notFound("scanner \(scannerID) is not a placed fixed scanner")
            }
            return try record.placement()
        }
    }

    /// Every fixed scanner's placement, by scanner ID; those of one floor when given.
    package func placements(onFloor floorID: Int64? = nil) async throws -> [ScannerPlacement] {
        try await readStatements { sql in try ScannerPlacementRecord.fetchAll(sql, onFloor: floorID).map { try $0.placement() } }
    }

    /// Makes the scanner a roaming one again; its sightings stay. Idempotent: a registered
    /// scanner that is not placed stays so (a second DELETE, or one that raced another, is not an
    /// error).
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown scanner.
    package func unplaceScanner(_ scannerID: ScannerID) async throws {
        try await writeStatements { sql in
            try sql.lock(Self.placementLock(scannerID))
            guard try sql.row("SELECT id FROM scanner WHERE id = ?", [.text(scannerID.rawValue)]) != nil else {
                throw StoreError.notFound("no scanner \(scannerID)")
            }
            if try sql.execute("DELETE FROM scanner_placement WHERE scanner_id = ?", [.text(scannerID.rawValue)]) > 0 {
                try Self.announceWatchedChange(in: sql)
            }
        }
    }

    /// The lock a write of `scannerID`'s placement takes, so that on PostgreSQL a placement and
    /// the re-estimate of its receive offset (``recalibrate(_:reading:in:)``) are made one after
    /// another.
    static func placementLock(_ scannerID: ScannerID) -> String { "placement \(scannerID.rawValue)" }

    /// Sightings of registered beacons the estimate of a receive offset reads, newest first.
    static let calibrationSightings = 500

    /// Re-estimates `scannerID`'s receive offset from its latest sightings of registered beacons
    /// on its floor (``ReceiveOffsetEstimate``), each window's RSSI its `statistic` less the
    /// statistic's mean gap above the median over those sightings
    /// (``TagRSSIStatistic/meanAboveMedian(_:)``): the beacons' measured powers are declared in
    /// the median's sense, so the offset is the receiver's own (6 dB hot: about −6 dB) whichever
    /// figure switchd reads. Leaves the placement as it is when there are none.
    static func recalibrate(_ scannerID: ScannerID, reading statistic: TagRSSIStatistic, in sql: any StoreTransaction) throws {
        try sql.lock(placementLock(scannerID))
        guard var placement = try ScannerPlacementRecord.fetch(sql, of: scannerID) else { return }
        let rows = try sql.rows("""
            SELECT sighting.count, sighting.median_rssi, sighting.max_rssi, beacon.x, beacon.y, beacon.z, beacon.measured_power
            FROM sighting JOIN beacon ON beacon.id = sighting.beacon_id
            WHERE sighting.scanner_id = ? AND beacon.floor_id = ?
            ORDER BY sighting.id DESC LIMIT ?
            """, [.text(scannerID.rawValue), .integer(placement.floorID), StoreValue(calibrationSightings)])
        let windows = try rows.map { (count: try $0.int("count"), median: try $0.double("median_rssi"), strongest: try $0.double("max_rssi")) }
        let gap = statistic.meanAboveMedian(windows)
        let samples = try zip(rows, windows).map { row, window in
            let dx = placement.x - (try row.double("x")), dy = placement.y - (try row.double("y")), dz = placement.height - (try row.double("z"))
            return ReceiveOffsetSample(
                rssi: statistic.value(median: window.median, strongest: window.strongest) - gap, txPower: try row.double("measured_power"),
                distance: (dx * dx + dy * dy + dz * dz).squareRoot(), exponent: placement.pathLossExponent
            )
        }
        guard let estimate = ReceiveOffsetEstimate(samples) else { return }
        placement.estimatedReceiveOffset = estimate.offset
        placement.calibrationSamples = estimate.samples
        try placement.updateEstimate(sql)
    }
}
