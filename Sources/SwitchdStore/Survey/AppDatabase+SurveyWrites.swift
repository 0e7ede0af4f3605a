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
    /// measurement feed's end, the position feed's and the tag position feed's (a floor's
    /// positions go with it; see ``SequencedFeed/keepingEnd(in:_:)``). The caller holds
    /// ``surveyLock``; the feeds' locks come next (measurements, positions, tag positions) and
    /// each scanner's switch lock last, the order ingest
    /// (feed, then switch), a position (survey, then feed) and a switch change that sets a place
    /// (survey, then switch) take them in too, so two instances never wait on each other in a
    /// circle.
    ///
    /// - Throws: what `delete` throws; the transaction then rolls back with it.
    static func deletingPlaces(
        rooms: Set<Int64>, locations: Set<Int64>, at now: Date, in sql: any StoreTransaction, _ delete: () throws -> Void
    ) throws -> Deletion {
        try SequencedFeed.measurements.keepingEnd(in: sql) {
            try SequencedFeed.positions.keepingEnd(in: sql) {
                try SequencedFeed.tagPositions.keepingEnd(in: sql) {
                    let turnedOff = try turnOffSwitches(inRooms: rooms, orLocations: locations, at: now, in: sql)
                    try delete()
                    return Deletion(switchesTurnedOff: turnedOff)
                }
            }
        }
    }

    /// Runs `delete`, a deletion that may remove the measurement feed's newest readings (by the
    /// cascades of a floor, room or location, or clearing a room), so that the feed's end never
    /// goes down (``SequencedFeed/keepingEnd(in:_:)``).
    ///
    /// - Throws: what `delete` throws; the transaction then rolls back with it.
    static func keepingMeasurementFeedEnd(in sql: any StoreTransaction, _ delete: () throws -> Void) throws {
        try SequencedFeed.measurements.keepingEnd(in: sql, delete)
    }
}
