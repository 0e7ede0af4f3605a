import Foundation
import ScanContract

/// A `presence_event` row, read as a ``PresenceEvent``.
struct PresenceEventRecord {
    var id: Int64?
    var scannerID: String?
    var kind: String
    var place: String?
    var floorID: Int64?
    var roomID: Int64?
    var timeMs: Int64
    var positionID: Int64?
    var tagID: Int64?
    var beaconID: Int64?

    enum CodingKeys: String, CodingKey {
        case id, scannerID = "scanner_id", kind, place, floorID = "floor_id", roomID = "room_id", timeMs = "time_ms"
        case positionID = "position_id", tagID = "tag_id", beaconID = "beacon_id"
    }

    init(_ new: NewPresenceEvent, of subject: PresenceSubject) {
        scannerID = subject.scannerID?.rawValue
        tagID = subject.tagID
        kind = new.kind.rawValue
        place = new.place?.rawValue
        floorID = new.floor
        roomID = new.roomID
        timeMs = new.time.milliseconds
        positionID = new.positionID
    }

    /// A `missingTagHeard` event: `scannerID`, placed on `floorID`, heard tag `tagID` in the
    /// window ending at `time`.
    init(missingTag tagID: Int64, heardBy scannerID: ScannerID, floorID: Int64?, time: Date) {
        self.scannerID = scannerID.rawValue
        kind = PresenceEventKind.missingTagHeard.rawValue
        self.floorID = floorID
        timeMs = time.milliseconds
        self.tagID = tagID
    }

    /// A `batteryLow` event of `subject`, on `floorID` (a beacon's floor), at `time`.
    init(batteryLowOf subject: TelemetrySubject, floorID: Int64?, time: Date) {
        kind = PresenceEventKind.batteryLow.rawValue
        self.floorID = floorID
        timeMs = time.milliseconds
        tagID = subject.tagID
        beaconID = subject.beaconID
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` for a kind, place or scanner ID switchd does not write.
    func event() throws -> PresenceEvent {
        guard let eventKind = PresenceEventKind(rawValue: kind) else {
            throw StoreError.corruptRow("presence event \(id ?? 0) has kind \"\(kind)\"")
        }
        let eventPlace = try place.map { text in
            guard let value = PresencePlace(rawValue: text) else {
                throw StoreError.corruptRow("presence event \(id ?? 0) has place \"\(text)\"")
            }
            return value
        }
        return PresenceEvent(
            id: id ?? 0, scannerID: try scannerID.map(storedScannerID), kind: eventKind, place: eventPlace, floor: floorID, roomID: roomID,
            time: Date(milliseconds: timeMs), positionID: positionID, tagID: tagID, beaconID: beaconID
        )
    }
}

extension PresenceEventRecord {
    static let columns = "id, scanner_id, kind, place, floor_id, room_id, time_ms, position_id, tag_id, beacon_id"

    /// - Throws: ``StoreError/corruptRow(_:)`` for a column missing or of another kind.
    init(row: StoreRow) throws {
        id = try row.int64("id")
        scannerID = try row.optionalString("scanner_id")
        kind = try row.string("kind")
        place = try row.optionalString("place")
        floorID = try row.optionalInt64("floor_id")
        roomID = try row.optionalInt64("room_id")
        timeMs = try row.int64("time_ms")
        positionID = try row.optionalInt64("position_id")
        tagID = try row.optionalInt64("tag_id")
        beaconID = try row.optionalInt64("beacon_id")
    }

    /// Stores the event through the seam and returns it with its ID. Takes the event feed's lock
    /// first (``AppDatabase/presenceEventFeedLock``), so event IDs commit in order on every
    /// instance, and announces the new ID to the other instances on commit.
    func inserted(_ sql: any StoreTransaction) throws -> PresenceEventRecord {
        try sql.lock(AppDatabase.presenceEventFeedLock)
        let row = try sql.insertedRow("""
            INSERT INTO presence_event (scanner_id, kind, place, floor_id, room_id, time_ms, position_id, tag_id, beacon_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING \(Self.columns)
            """, [
                StoreValue(scannerID), .text(kind), StoreValue(place), StoreValue(floorID), StoreValue(roomID), .integer(timeMs),
                StoreValue(positionID), StoreValue(tagID), StoreValue(beaconID),
            ], storing: "a presence event")
        let stored = try PresenceEventRecord(row: row)
        try sql.notify(AppDatabase.feedChannel, "\(AppDatabase.presenceEventFeed) \(stored.id ?? 0)")
        return stored
    }
}
