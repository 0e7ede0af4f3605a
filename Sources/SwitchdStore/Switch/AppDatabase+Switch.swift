import Foundation
import ScanContract

/// The result of a switch change: the state now, and whether it is a new revision.
package struct SwitchUpdate: Sendable {
    package var scanSwitch: ScanSwitch
    package var isNewRevision: Bool
}

/// What a delete changed besides the deleted rows: switches that pointed into the deleted part
/// of the survey are turned off and cleared, as new revisions, so scanners stop surveying it.
package struct Deletion: Sendable {
    package var switchesTurnedOff: [ScanSwitch]
}

extension AppDatabase {
    /// The scanner's switch as it is now.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown scanner.
    package func currentSwitch(of scannerID: ScannerID) async throws -> ScanSwitch {
        try await readStatements { sql in try Self.requireCurrentSwitch(of: scannerID, in: sql) }
    }

    /// Applies an admin's change to a scanner's switch; a change that changes nothing keeps the
    /// revision.
    ///
    /// Setting a location sets the room to the location's room. Throws, leaving the switch as it
    /// was: ``StoreError/notFound(_:)`` for an unknown scanner; ``StoreError/conflict(_:)`` when
    /// `expectedRevision` is not the current one; ``StoreError/invalidField(_:)`` naming
    /// `locationID` or `roomID` when they name nothing or disagree, or the field the state machine
    /// refused.
    package func updateSwitch(of scannerID: ScannerID, with patch: SwitchPatch, at now: Date) async throws -> SwitchUpdate {
        try await writeStatements { sql in
            if patch.setsAPlace {
                // The place must still exist when the revision commits: no survey deletion may
                // run between the check and the commit (docs/scale-out.md, "Transactions").
                try sql.lock(Self.surveyLock)
            }
            try sql.lock(Self.switchLock(scannerID))
            let current = try Self.requireCurrentSwitch(of: scannerID, in: sql)
            if let expected = patch.expectedRevision, expected != current.revision {
                throw StoreError.conflict("the switch of \(scannerID) is at revision \(current.revision), not \(expected)")
            }
            let placed = try Self.placing(patch, in: sql)
            let next: ScanSwitch
            do throws(ValidationError) {
                next = try current.applying(placed, at: now)
            } catch {
                throw StoreError.invalidField(error)
            }
            guard next.revision != current.revision else {
                return SwitchUpdate(scanSwitch: current, isNewRevision: false)
            }
            try Self.checkPlace(of: next, in: sql)
            try Self.store(next, in: sql)
            return SwitchUpdate(scanSwitch: next, isNewRevision: true)
        }
    }

    /// Turns off every switch whose `{seconds: T}` deadline has passed.
    ///
    /// - Returns: the new revisions, for the switch hub.
    package func expireSwitches(at now: Date) async throws -> [ScanSwitch] {
        try await writeStatements { sql in
            var expired: [ScanSwitch] = []
            for due in try SwitchRevisionRecord.currentOfEveryScanner(sql) where due.deadline != nil {
                // Read again under the scanner's lock: another instance may have changed it since.
                try sql.lock(Self.switchLock(due.scannerID))
                let current = try Self.requireCurrentSwitch(of: due.scannerID, in: sql)
                let next = current.expiring(at: now)
                if next.revision != current.revision {
                    try Self.store(next, in: sql)
                    expired.append(next)
                }
            }
            return expired
        }
    }

    /// The earliest `{seconds: T}` deadline of a switch that is on, if any.
    package func nextSwitchDeadline() async throws -> Date? {
        try await readStatements { sql in
            try SwitchRevisionRecord.currentOfEveryScanner(sql).compactMap(\.deadline).min()
        }
    }

    // MARK: - Inside a transaction

    static func requireCurrentSwitch(of scannerID: ScannerID, in sql: any StoreTransaction) throws -> ScanSwitch {
        guard let current = try SwitchRevisionRecord.current(sql, of: scannerID) else {
            throw StoreError.notFound("no scanner \(scannerID)")
        }
        return current
    }

    /// Turns off and clears the switches whose current revision points at one of these rooms or
    /// locations; they would otherwise keep pointing at a place that no longer exists.
    static func turnOffSwitches(inRooms rooms: Set<Int64>, orLocations locations: Set<Int64>, at now: Date, in sql: any StoreTransaction) throws -> [ScanSwitch] {
        var turnedOff: [ScanSwitch] = []
        func pointsInside(_ scanSwitch: ScanSwitch) -> Bool {
            scanSwitch.roomID.map(rooms.contains) == true || scanSwitch.locationID.map(locations.contains) == true
        }
        for seen in try SwitchRevisionRecord.currentOfEveryScanner(sql) where pointsInside(seen) {
            // Read again under the scanner's lock: another instance may have changed it since.
            try sql.lock(switchLock(seen.scannerID))
            let current = try requireCurrentSwitch(of: seen.scannerID, in: sql)
            guard pointsInside(current) else { continue }
            let next = try current.applying(SwitchPatch(scanning: false, roomID: .set(nil), locationID: .set(nil)), at: now)
            if next.revision != current.revision {
                try store(next, in: sql)
                turnedOff.append(next)
            }
        }
        return turnedOff
    }

    /// Sets the scanner's switch from `current` to `patch` under one new revision, even when the
    /// patch changes no setting (``ScanSwitch/restarting(with:at:)``), stores it and returns it.
    ///
    /// - Throws: ``StoreError/invalidField(_:)`` naming the field the state machine refused;
    ///   nothing is stored then.
    static func storeRevision(of current: ScanSwitch, setting patch: SwitchPatch, at now: Date, in sql: any StoreTransaction) throws -> ScanSwitch {
        let next: ScanSwitch
        do throws(ValidationError) {
            next = try current.restarting(with: patch, at: now)
        } catch {
            throw StoreError.invalidField(error)
        }
        try store(next, in: sql)
        return next
    }

    /// Stores a new revision and announces it to every instance once the transaction commits
    /// (``switchChannel``, docs/scale-out.md "Fan-out across instances").
    static func store(_ revision: ScanSwitch, in sql: any StoreTransaction) throws {
        try SwitchRevisionRecord(revision).insert(sql)
        try sql.notify(switchChannel, "\(revision.scannerID.rawValue) \(revision.revision)")
    }

    /// The channel new switch revisions are announced on: `"<scanner ID> <revision>"`.
    package static let switchChannel = "floorscan_switch"

    /// The lock that makes one scanner's revisions one after another on every instance.
    static func switchLock(_ scannerID: ScannerID) -> String { "switch \(scannerID.rawValue)" }

    /// The patch with the room taken from the location when a location is set.
    private static func placing(_ patch: SwitchPatch, in sql: any StoreTransaction) throws -> SwitchPatch {
        var patch = patch
        if case .set(let locationID?) = patch.locationID {
            guard let roomID = try LocationRecord.roomID(sql, ofLocation: locationID) else {
                throw StoreError.invalidField(ValidationError(field: "locationID", reason: "no location \(locationID)"))
            }
            if case .set(let given) = patch.roomID, given != roomID {
                throw StoreError.invalidField(ValidationError(
                    field: "roomID", reason: "location \(locationID) is in room \(roomID), not \(given.map(String.init) ?? "null")"
                ))
            }
            patch.roomID = .set(roomID)
        } else if case .set(let roomID?) = patch.roomID, try sql.row("SELECT id FROM room WHERE id = ?", [.integer(roomID)]) == nil {
            throw StoreError.invalidField(ValidationError(field: "roomID", reason: "no room \(roomID)"))
        }
        return patch
    }

    /// A new revision's room must be its location's room.
    private static func checkPlace(of scanSwitch: ScanSwitch, in sql: any StoreTransaction) throws {
        guard let locationID = scanSwitch.locationID else { return }
        guard let roomID = try LocationRecord.roomID(sql, ofLocation: locationID) else {
            throw StoreError.invalidField(ValidationError(field: "locationID", reason: "no location \(locationID)"))
        }
        guard scanSwitch.roomID == roomID else {
            throw StoreError.invalidField(ValidationError(
                field: "roomID", reason: "location \(locationID) is in room \(roomID), not \(scanSwitch.roomID.map(String.init) ?? "null")"
            ))
        }
    }
}

extension SwitchPatch {
    /// Whether the patch points the switch at a room or location.
    var setsAPlace: Bool {
        if case .set(_?) = roomID { return true }
        if case .set(_?) = locationID { return true }
        return false
    }
}
