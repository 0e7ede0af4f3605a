import Foundation
import ScanContract

extension AppDatabase {
    /// The lock every write to the survey (floors, rooms, locations, links, beacons) takes first,
    /// so that on PostgreSQL two instances' checks and writes (a link already joining two
    /// locations, a beacon identity taken, a room's floor still there) run one after another,
    /// as SQLite's one writer runs them (docs/scale-out.md, "Transactions and serialisation").
    static let surveyLock = "survey"

    /// Deletes part of the survey with `delete`, after turning off the switches pointing into
    /// `rooms` or `locations` (``turnOffSwitches(inRooms:orLocations:at:in:)``), keeping the
    /// measurement feed's end (``keepingMeasurementFeedEnd(in:_:)``). The caller holds
    /// ``surveyLock``; the feed's lock comes next and each scanner's switch lock last, the order
    /// ingest (feed, then switch) and a switch change that sets a place (survey, then switch)
    /// take them in too, so two instances never wait on each other in a circle.
    ///
    /// - Throws: what `delete` throws; the transaction then rolls back with it.
    static func deletingPlaces(
        rooms: Set<Int64>, locations: Set<Int64>, at now: Date, in sql: any StoreTransaction, _ delete: () throws -> Void
    ) throws -> Deletion {
        var turnedOff: [ScanSwitch] = []
        try keepingMeasurementFeedEnd(in: sql) {
            turnedOff = try turnOffSwitches(inRooms: rooms, orLocations: locations, at: now, in: sql)
            try delete()
        }
        return Deletion(switchesTurnedOff: turnedOff)
    }

    /// Runs `delete`, a deletion that may remove the measurement feed's newest readings (by the
    /// cascades of a floor, room or location, or clearing a room), so that the feed's end never
    /// goes down. On SQLite, `sqlite_sequence` keeps the end whatever is deleted: `delete` just
    /// runs. On PostgreSQL, whose end is the highest sequence stored (``endOfMeasurementFeed(in:)``),
    /// the feed's lock is taken (no ingest commits meanwhile), and when the deletion lowered the
    /// highest sequence the former one is kept in `feed_end`.
    ///
    /// - Throws: what `delete` throws; the transaction then rolls back with it.
    static func keepingMeasurementFeedEnd(in sql: any StoreTransaction, _ delete: () throws -> Void) throws {
        try keepingFeedEnd(.measurement, in: sql, delete)
    }
}
