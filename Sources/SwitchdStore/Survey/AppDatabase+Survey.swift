import Foundation
import GRDB
import Positioning
import ScanContract

/// One survey scan cycle: the readings one scanner took in scan `scan` under one switch revision.
package struct SurveyScanKey: Hashable, Comparable, Sendable {
    package var scannerID: String
    package var revision: Int64
    package var scan: Int64

    package init(scannerID: String, revision: Int64, scan: Int64) {
        self.scannerID = scannerID
        self.revision = revision
        self.scan = scan
    }

    package static func < (lhs: SurveyScanKey, rhs: SurveyScanKey) -> Bool {
        (lhs.scannerID, lhs.revision, lhs.scan) < (rhs.scannerID, rhs.revision, rhs.scan)
    }
}

/// One stored survey reading: where it was taken, in which scan cycle, of which emitter.
package struct SurveyReading: Sendable {
    package var locationID: Int64
    package var scan: SurveyScanKey
    package var emitter: Emitter
    package var rssi: Int

    package init(locationID: Int64, scan: SurveyScanKey, emitter: Emitter, rssi: Int) {
        self.locationID = locationID
        self.scan = scan
        self.emitter = emitter
        self.rssi = rssi
    }
}

/// The survey as stored in one snapshot, on either database: what a radio map is built from.
/// Only valid inside the closure given to ``AppDatabase/readSurvey(_:)``.
package struct SurveySnapshot: ~Copyable {
    package let version: SurveyVersion
    /// Ordered by building, level and ID.
    package let floors: [Floor]
    /// Ordered by ID.
    package let beacons: [Beacon]
    /// Ordered by ID.
    package let locations: [Location]
    /// Every room, ordered by ID, with its outline when it has one.
    package let rooms: [Room]
    fileprivate let sql: any StoreTransaction

    /// Readings of a walk survey still under way are not at their place yet: they are stored at
    /// the walk's start until it arrives (``WalkPlacement``).
    private static let notOnAWalkUnderWay = """
        NOT EXISTS (SELECT 1 FROM walk WHERE walk.scanner_id = measurement.scanner_id
                    AND walk.revision = measurement.revision AND walk.state = 'walking')
        """

    /// Calls `body` with every survey reading of a location that still exists, one at a time,
    /// without holding them all in memory, leaving out those of a walk survey under way. On
    /// SQLite through a cursor; PostgreSQL's driver has none, so there the readings are read
    /// `pageSize` at a time, in sequence order, all in the one snapshot.
    ///
    /// - Throws: what `body` throws; ``StoreError/corruptRow(_:)`` for a row switchd would not write.
    package func forEachReading(pageSize: Int = readingsPerPage, _ body: (SurveyReading) throws -> Void) throws {
        if let sqlite = sql as? SQLiteTransaction {
            typealias Columns = MeasurementRecord.Columns
            let records = try MeasurementRecord
                .filter(Columns.mode == ScanMode.survey.rawValue && Columns.locationID != nil)
                .filter(sql: Self.notOnAWalkUnderWay)
                .fetchCursor(sqlite.db)
            while let record = try records.next() {
                if let reading = try record.surveyReading() {
                    try body(reading)
                }
            }
            return
        }
        var after: Int64 = 0
        while true {
            let rows = try sql.rows("""
                SELECT * FROM measurement
                WHERE mode = 'survey' AND location_id IS NOT NULL AND sequence > ? AND \(Self.notOnAWalkUnderWay)
                ORDER BY sequence LIMIT ?
                """, [.integer(after), .integer(Int64(pageSize))])
            for row in rows {
                let record = try MeasurementRecord(storeRow: row)
                after = record.sequence ?? after
                if let reading = try record.surveyReading() {
                    try body(reading)
                }
            }
            if rows.count < pageSize { return }
        }
    }

    /// Readings read at a time where the database gives no cursor (PostgreSQL).
    package static let readingsPerPage = 5_000
}

extension AppDatabase {
    /// The survey version now.
    package func surveyVersion() async throws -> SurveyVersion {
        try await readStatements { sql in try SurveyVersionRecord.current(sql) }
    }

    /// Reads the survey in one snapshot and hands it to `body`, whose result is returned.
    ///
    /// - Throws: what `body` throws; ``StoreError/corruptRow(_:)`` when a stored row is not what
    ///   switchd writes.
    package func readSurvey<Result: Sendable>(_ body: @escaping @Sendable (borrowing SurveySnapshot) throws -> Result) async throws -> Result {
        try await readStatements { sql in
            let snapshot = SurveySnapshot(
                version: try SurveyVersionRecord.current(sql), floors: try FloorRecord.fetchFloors(sql),
                beacons: try BeaconRecord.fetchBeacons(sql), locations: try LocationRecord.fetchLocations(sql),
                rooms: try RoomRecord.fetchRooms(sql), sql: sql
            )
            return try body(snapshot)
        }
    }
}
