import Foundation
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
        try await readStatements { sql in
            guard let floorID else { return try WalkRecord.fetchWalks(sql) }
            guard try FloorRecord.exists(sql, id: floorID) else { throw StoreError.notFound("no floor \(floorID)") }
            return try WalkRecord.fetchWalks(sql, filter: "room.floor_id = ?", values: [.integer(floorID)])
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown walk.
    package func walk(_ id: Int64) async throws -> Walk {
        try await readStatements { sql in try Self.requireWalk(id, in: sql) }
    }

    /// Starts a walk survey: the scanner's switch is set to survey the start location under one
    /// revision of its own, new even when the scanner already surveyed there, which the walk
    /// records. Its readings stay out of the radio map until the walk arrives.
    ///
    /// Takes the survey's lock (the locations must stay until it commits), then the scanner's
    /// switch lock, as a switch change that sets a place does.
    ///
    /// Throws, changing nothing: ``StoreError/notFound(_:)`` for an unknown scanner;
    /// ``StoreError/invalidField(_:)`` naming `fromLocationID` or `toLocationID` for a location
    /// that does not exist, and `toLocationID` for an end equal to the start, on another floor, at
    /// the same point or farther than ``NewWalk/maximumLength``; ``StoreError/conflict(_:)`` when
    /// the scanner is already walking.
    package func startWalk(_ new: NewWalk, at now: Date) async throws -> WalkChange {
        try validate(new.validate)
        return try await writeStatements { sql in
            try sql.lock(Self.surveyLock)
            try sql.lock(Self.switchLock(new.scannerID))
            let current = try Self.requireCurrentSwitch(of: new.scannerID, in: sql)
            if let walking = try sql.row(
                "SELECT id FROM walk WHERE scanner_id = ? AND state = ?", [.text(new.scannerID.rawValue), .text(WalkState.walking.rawValue)]
            ) {
                throw StoreError.conflict("scanner \(new.scannerID) is walking walk \(try walking.int64("id")); it must arrive or be deleted first")
            }
            let from = try Self.walkEnd(new.fromLocationID, field: "fromLocationID", in: sql)
            let to = try Self.walkEnd(new.toLocationID, field: "toLocationID", in: sql)
            try Self.checkSegment(from: from, to: to)
            let surveying = try Self.storeRevision(of: current, setting: SwitchPatch(
                scanning: true, mode: .survey, roomID: .set(from.roomID), locationID: .set(from.id), stopAfter: .set(nil)
            ), at: now, in: sql)
            let record = WalkRecord(
                scannerID: new.scannerID.rawValue, revision: surveying.revision, fromLocationID: from.id, toLocationID: to.id,
                roomID: from.roomID, startX: from.x, startY: from.y, endX: to.x, endY: to.y, startedMs: now.milliseconds,
                arrivedMs: nil, state: WalkState.walking.rawValue, droppedCycles: 0
            )
            return WalkChange(walk: try Self.requireWalk(try record.insert(sql), in: sql), switchChanged: surveying)
        }
    }

    /// Ends a walk at `now`, where the admin reached the end: the switch is turned off (when it is
    /// still at the walk's revision) and every scan cycle received so far is placed on the segment
    /// (``WalkPlacement``); cycles uploaded later are placed when they arrive.
    ///
    /// Takes the survey's lock (placing adds walk points), then the scanner's switch lock.
    ///
    /// Throws, changing nothing: ``StoreError/notFound(_:)`` for an unknown walk;
    /// ``StoreError/conflict(_:)`` for a walk that already arrived, or when `now` is not after
    /// its start (switchd's clock went back).
    package func arrive(_ id: Int64, at now: Date) async throws -> WalkChange {
        try await writeStatements { sql in
            try sql.lock(Self.surveyLock)
            guard var record = try WalkRecord.fetchRecord(sql, id: id) else { throw StoreError.notFound("no walk \(id)") }
            guard record.state == WalkState.walking.rawValue else {
                throw StoreError.conflict("walk \(id) already arrived")
            }
            guard now.milliseconds > record.startedMs else {
                throw StoreError.conflict("walk \(id) started at \(record.startedMs) ms, not before this arrival at \(now.milliseconds) ms")
            }
            let turnedOff = try Self.turnOffWalkSwitch(of: record, at: now, in: sql)
            record.arrivedMs = now.milliseconds
            record.state = WalkState.done.rawValue
            try sql.execute("UPDATE walk SET arrived_ms = ?, state = ? WHERE id = ?", [
                .integer(now.milliseconds), .text(record.state), .integer(id),
            ])
            try WalkPlacement.place(record, in: sql)
            return WalkChange(walk: try Self.requireWalk(id, in: sql), switchChanged: turnedOff)
        }
    }

    /// Deletes a walk with its points and their readings; a walk still walking also loses the
    /// readings taken so far, and its switch is turned off. The walk's switch revision forgets its
    /// location, as when a surveyed location is deleted: a batch of the walk uploaded later is
    /// refused (409) rather than stored at the start location.
    ///
    /// Takes the survey's lock, the measurement feed's (it may delete the newest readings, whose
    /// end it keeps: ``SequencedFeed/keepingEnd(in:_:)``), then the scanner's switch lock.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown walk.
    package func deleteWalk(_ id: Int64, at now: Date) async throws -> WalkChange {
        try await writeStatements { sql in
            try sql.lock(Self.surveyLock)
            guard let record = try WalkRecord.fetchRecord(sql, id: id) else { throw StoreError.notFound("no walk \(id)") }
            return try SequencedFeed.measurements.keepingEnd(in: sql) {
                var turnedOff: ScanSwitch?
                if record.state == WalkState.walking.rawValue {
                    turnedOff = try Self.turnOffWalkSwitch(of: record, at: now, in: sql)
                    try Self.deleteReadingsSoFar(of: record, in: sql)
                }
                try sql.execute("UPDATE switch_revision SET location_id = NULL WHERE scanner_id = ? AND revision = ?", [
                    .text(record.scannerID), .integer(Int64(record.revision)),
                ])
                try sql.execute("DELETE FROM walk WHERE id = ?", [.integer(id)])
                return WalkChange(walk: nil, switchChanged: turnedOff)
            }
        }
    }

    // MARK: - Inside a transaction

    static func requireWalk(_ id: Int64, in sql: any StoreTransaction) throws -> Walk {
        guard let walk = try WalkRecord.fetchWalks(sql, filter: "walk.id = ?", values: [.integer(id)]).first else {
            throw StoreError.notFound("no walk \(id)")
        }
        return walk
    }

    /// Deletes `scannerID`'s walk under way, if any, with the readings it took so far: they lie
    /// at its start, kept out of the map only while it walks. Its finished walks stay, points and
    /// readings, like every other reading of a deleted scanner. The caller keeps the measurement
    /// feed's end.
    static func deleteWalkUnderWay(of scannerID: String, in sql: any StoreTransaction) throws {
        let walking = try WalkRecord.fetchRecords(
            sql, filter: "scanner_id = ? AND state = ?", values: [.text(scannerID), .text(WalkState.walking.rawValue)]
        )
        for record in walking {
            try deleteReadingsSoFar(of: record, in: sql)
            try sql.execute("DELETE FROM walk WHERE id = ?", [StoreValue(record.id)])
        }
    }

    /// The readings a walk under way took so far: stored at its start location under its revision.
    private static func deleteReadingsSoFar(of walk: WalkRecord, in sql: any StoreTransaction) throws {
        try sql.execute("DELETE FROM measurement WHERE location_id = ? AND scanner_id = ? AND revision = ?", [
            StoreValue(walk.fromLocationID), .text(walk.scannerID), .integer(Int64(walk.revision)),
        ])
    }

    /// Places the readings a batch of `revision` added to a walk that has already arrived. On
    /// PostgreSQL the caller holds the survey's lock (``walkBatchesNeedTheSurveyLock(_:in:)``).
    static func placeLateWalkReadings(scannerID: String, revision: Int, in sql: any StoreTransaction) throws {
        guard let walk = try WalkRecord.walk(sql, scannerID: scannerID, revision: revision), walk.state == WalkState.done.rawValue else { return }
        try WalkPlacement.place(walk, in: sql)
    }

    /// Whether any of these batches was scanned under a walk's revision: ingest then takes the
    /// survey's lock before the feed's, so that on PostgreSQL its readings and the walk's arrival
    /// (or deletion) are one after another, as on SQLite, and the readings of a walk that has
    /// arrived are placed (``placeLateWalkReadings(scannerID:revision:in:)``). A walk's revision
    /// exists before any batch can name it, so a batch not under one now never will be.
    /// One statement for the whole group, so a group costs one round trip more, not one per batch.
    static func walkBatchesNeedTheSurveyLock(_ batches: [MeasurementBatch], in sql: any StoreTransaction) throws -> Bool {
        guard !batches.isEmpty else { return false }
        let conditions = Array(repeating: "(scanner_id = ? AND revision = ?)", count: batches.count).joined(separator: " OR ")
        let values = batches.flatMap { batch -> [StoreValue] in [.text(batch.scannerID.rawValue), .integer(Int64(batch.switchRevision))] }
        return try sql.row("SELECT id FROM walk WHERE \(conditions) LIMIT 1", values) != nil
    }

    private static func walkEnd(_ id: Int64, field: String, in sql: any StoreTransaction) throws -> Location {
        guard let location = try LocationRecord.fetchLocation(sql, id: id) else {
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
    private static func turnOffWalkSwitch(of walk: WalkRecord, at now: Date, in sql: any StoreTransaction) throws -> ScanSwitch? {
        let scannerID = try storedScannerID(walk.scannerID)
        try sql.lock(switchLock(scannerID))
        guard let current = try SwitchRevisionRecord.current(sql, of: scannerID),
              current.revision == walk.revision, current.scanning else { return nil }
        return try storeRevision(of: current, setting: SwitchPatch(scanning: false), at: now, in: sql)
    }
}
