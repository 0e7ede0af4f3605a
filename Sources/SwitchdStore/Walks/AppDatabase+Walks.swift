import Foundation
import GRDB
import Positioning
import ScanContract

/// What starting, ending or deleting a walk did: the walk as it now is (nil once deleted) and the
/// switch revision it made, for the switch hub.
package struct WalkChange: Sendable {
    package var walk: Walk?
    package var switchChanged: ScanSwitch?
}

extension AppDatabase {
    /// Every walk, ordered by ID; those of one floor when `floorID` is given.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` when `floorID` names nothing.
    package func walks(onFloor floorID: Int64?) async throws -> [Walk] {
        try await read { db in
            guard let floorID else { return try WalkRecord.fetchWalks(db) }
            guard try FloorRecord.exists(db, key: floorID) else { throw StoreError.notFound("no floor \(floorID)") }
            return try WalkRecord.fetchWalks(db, filter: "room.floor_id = ?", arguments: [floorID])
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown walk.
    package func walk(_ id: Int64) async throws -> Walk {
        try await read { db in try Self.requireWalk(id, in: db) }
    }

    /// Starts a walk survey: the scanner's switch is set to survey the start location under one
    /// revision of its own, new even when the scanner already surveyed there, which the walk
    /// records. Its readings stay out of the radio map until the walk arrives.
    ///
    /// Throws, changing nothing: ``StoreError/notFound(_:)`` for an unknown scanner;
    /// ``StoreError/invalidField(_:)`` naming `fromLocationID` or `toLocationID` for a location
    /// that does not exist, and `toLocationID` for an end equal to the start, on another floor, at
    /// the same point or farther than ``NewWalk/maximumLength``; ``StoreError/conflict(_:)`` when
    /// the scanner is already walking.
    package func startWalk(_ new: NewWalk, at now: Date) async throws -> WalkChange {
        try validate(new.validate)
        return try await write { db in
            let sql = SQLiteTransaction(db: db)
            let current = try Self.requireCurrentSwitch(of: new.scannerID, in: sql)
            if let walking = try Int64.fetchOne(db, sql: "SELECT id FROM walk WHERE scanner_id = ? AND state = 'walking'", arguments: [new.scannerID.rawValue]) {
                throw StoreError.conflict("scanner \(new.scannerID) is walking walk \(walking); it must arrive or be deleted first")
            }
            let from = try Self.walkEnd(new.fromLocationID, field: "fromLocationID", in: db)
            let to = try Self.walkEnd(new.toLocationID, field: "toLocationID", in: db)
            try Self.checkSegment(from: from, to: to)
            let surveying = try Self.storeRevision(of: current, setting: SwitchPatch(
                scanning: true, mode: .survey, roomID: .set(from.roomID), locationID: .set(from.id), stopAfter: .set(nil)
            ), at: now, in: sql)
            var record = WalkRecord(
                scannerID: new.scannerID.rawValue, revision: surveying.revision, fromLocationID: from.id, toLocationID: to.id,
                roomID: from.roomID, startX: from.x, startY: from.y, endX: to.x, endY: to.y, startedMs: now.milliseconds,
                arrivedMs: nil, state: WalkState.walking.rawValue, droppedCycles: 0
            )
            try record.insert(db)
            return WalkChange(walk: try Self.requireWalk(record.id ?? db.lastInsertedRowID, in: db), switchChanged: surveying)
        }
    }

    /// Ends a walk at `now`, where the admin reached the end: the switch is turned off (when it is
    /// still at the walk's revision) and every scan cycle received so far is placed on the segment
    /// (``WalkPlacement``); cycles uploaded later are placed when they arrive.
    ///
    /// Throws, changing nothing: ``StoreError/notFound(_:)`` for an unknown walk;
    /// ``StoreError/conflict(_:)`` for a walk that already arrived, or when `now` is not after
    /// its start (switchd's clock went back).
    package func arrive(_ id: Int64, at now: Date) async throws -> WalkChange {
        try await write { db in
            guard var record = try WalkRecord.fetchOne(db, key: id) else { throw StoreError.notFound("no walk \(id)") }
            guard record.state == WalkState.walking.rawValue else {
                throw StoreError.conflict("walk \(id) already arrived")
            }
            guard now.milliseconds > record.startedMs else {
                throw StoreError.conflict("walk \(id) started at \(record.startedMs) ms, not before this arrival at \(now.milliseconds) ms")
            }
            let turnedOff = try Self.turnOffWalkSwitch(of: record, at: now, in: db)
            record.arrivedMs = now.milliseconds
            record.state = WalkState.done.rawValue
            try record.update(db)
            try WalkPlacement.place(record, in: db)
            return WalkChange(walk: try Self.requireWalk(id, in: db), switchChanged: turnedOff)
        }
    }

    /// Deletes a walk with its points and their readings; a walk still walking also loses the
    /// readings taken so far, and its switch is turned off. The walk's switch revision forgets its
    /// location, as when a surveyed location is deleted: a batch of the walk uploaded later is
    /// refused (409) rather than stored at the start location.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown walk.
    package func deleteWalk(_ id: Int64, at now: Date) async throws -> WalkChange {
        try await write { db in
            guard let record = try WalkRecord.fetchOne(db, key: id) else { throw StoreError.notFound("no walk \(id)") }
            var turnedOff: ScanSwitch?
            if record.state == WalkState.walking.rawValue {
                turnedOff = try Self.turnOffWalkSwitch(of: record, at: now, in: db)
                try Self.deleteReadingsSoFar(of: record, in: db)
            }
            try db.execute(sql: "UPDATE switch_revision SET location_id = NULL WHERE scanner_id = ? AND revision = ?", arguments: [
                record.scannerID, record.revision,
            ])
            _ = try record.delete(db)
            return WalkChange(walk: nil, switchChanged: turnedOff)
        }
    }

    // MARK: - Inside a transaction

    static func requireWalk(_ id: Int64, in db: Database) throws -> Walk {
        guard let walk = try WalkRecord.fetchWalks(db, filter: "walk.id = ?", arguments: [id]).first else {
            throw StoreError.notFound("no walk \(id)")
        }
        return walk
    }

    /// Deletes `scannerID`'s walk under way, if any, with the readings it took so far: they lie
    /// at its start, kept out of the map only while it walks. Its finished walks stay, points and
    /// readings, like every other reading of a deleted scanner.
    static func deleteWalkUnderWay(of scannerID: String, in db: Database) throws {
        let sql = "SELECT * FROM walk WHERE scanner_id = ? AND state = ?"
        guard let record = try WalkRecord.fetchOne(db, sql: sql, arguments: [scannerID, WalkState.walking.rawValue]) else { return }
        try deleteReadingsSoFar(of: record, in: db)
        _ = try record.delete(db)
    }

    /// The readings a walk under way took so far: stored at its start location under its revision.
    private static func deleteReadingsSoFar(of walk: WalkRecord, in db: Database) throws {
        try db.execute(sql: "DELETE FROM measurement WHERE location_id = ? AND scanner_id = ? AND revision = ?", arguments: [
            walk.fromLocationID, walk.scannerID, walk.revision,
        ])
    }

    /// Places the readings a batch of `revision` added to a walk that has already arrived.
    static func placeLateWalkReadings(scannerID: String, revision: Int, in db: Database) throws {
        guard let walk = try WalkRecord.walk(db, scannerID: scannerID, revision: revision), walk.state == WalkState.done.rawValue else { return }
        try WalkPlacement.place(walk, in: db)
    }

    private static func walkEnd(_ id: Int64, field: String, in db: Database) throws -> Location {
        guard let location = try LocationRecord.fetchLocation(SQLiteTransaction(db: db), id: id) else {
            throw StoreError.invalidField(ValidationError(field: field, reason: "no location \(id)"))
        }
        return location
    }

    private static func checkSegment(from: Location, to: Location) throws {
        func refuse(_ reason: String) -> StoreError {
            StoreError.invalidField(ValidationError(field: "toLocationID", reason: reason))
        }
        guard to.floorID == from.floorID else {
            throw refuse("location \(to.id) is on floor \(to.floorID); the walk starts on floor \(from.floorID), and a walk stays on one floor")
        }
        let length = WalkSegment(start: (from.x, from.y), end: (to.x, to.y), startTime: 0, endTime: 0).length
        guard length > 0 else {
            throw refuse("location \(to.id) is at the same point as location \(from.id): a walk needs a segment of some length")
        }
        guard length <= NewWalk.maximumLength else {
            throw refuse("the segment is \(String(format: "%.1f", length)) m; a walk covers at most \(Int(NewWalk.maximumLength)) m, so split it")
        }
    }

    /// Turns the scanner's switch off when it is still at the walk's revision; nil otherwise (the
    /// admin changed it since, and that change stands).
    private static func turnOffWalkSwitch(of walk: WalkRecord, at now: Date, in db: Database) throws -> ScanSwitch? {
        let sql = SQLiteTransaction(db: db)
        guard let current = try SwitchRevisionRecord.current(sql, of: ScannerID(walk.scannerID)),
              current.revision == walk.revision, current.scanning else { return nil }
        return try storeRevision(of: current, setting: SwitchPatch(scanning: false), at: now, in: sql)
    }
}
