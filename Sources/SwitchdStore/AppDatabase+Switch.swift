import Foundation
import GRDB
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
        try await read { db in try Self.requireCurrentSwitch(of: scannerID, in: db) }
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
        try await write { db in
            let current = try Self.requireCurrentSwitch(of: scannerID, in: db)
            if let expected = patch.expectedRevision, expected != current.revision {
                throw StoreError.conflict("the switch of \(scannerID) is at revision \(current.revision), not \(expected)")
            }
            let placed = try Self.placing(patch, in: db)
            let next: ScanSwitch
            do throws(ValidationError) {
                next = try current.applying(placed, at: now)
            } catch {
                throw StoreError.invalidField(error)
            }
            guard next.revision != current.revision else {
                return SwitchUpdate(scanSwitch: current, isNewRevision: false)
            }
            try Self.checkPlace(of: next, in: db)
            try SwitchRevisionRecord(next).insert(db)
            return SwitchUpdate(scanSwitch: next, isNewRevision: true)
        }
    }

    /// Turns off every switch whose `{seconds: T}` deadline has passed.
    ///
    /// - Returns: the new revisions, for the switch hub.
    package func expireSwitches(at now: Date) async throws -> [ScanSwitch] {
        try await write { db in
            var expired: [ScanSwitch] = []
            for current in try SwitchRevisionRecord.currentOfEveryScanner(db) where current.deadline != nil {
                let next = current.expiring(at: now)
                if next.revision != current.revision {
                    try SwitchRevisionRecord(next).insert(db)
                    expired.append(next)
                }
            }
            return expired
        }
    }

    /// The earliest `{seconds: T}` deadline of a switch that is on, if any.
    package func nextSwitchDeadline() async throws -> Date? {
        try await read { db in
            try SwitchRevisionRecord.currentOfEveryScanner(db).compactMap(\.deadline).min()
        }
    }

    // MARK: - Inside a transaction

    static func requireCurrentSwitch(of scannerID: ScannerID, in db: Database) throws -> ScanSwitch {
        guard let current = try SwitchRevisionRecord.current(db, of: scannerID) else {
            throw StoreError.notFound("no scanner \(scannerID)")
        }
        return current
    }

    /// Turns off and clears the switches whose current revision points at one of these rooms or
    /// locations; they would otherwise keep pointing at a place that no longer exists.
    static func turnOffSwitches(inRooms rooms: Set<Int64>, orLocations locations: Set<Int64>, at now: Date, in db: Database) throws -> [ScanSwitch] {
        var turnedOff: [ScanSwitch] = []
        for current in try SwitchRevisionRecord.currentOfEveryScanner(db) {
            let pointsInside = current.roomID.map(rooms.contains) == true || current.locationID.map(locations.contains) == true
            guard pointsInside else { continue }
            let next = try current.applying(SwitchPatch(scanning: false, roomID: .set(nil), locationID: .set(nil)), at: now)
            if next.revision != current.revision {
                try SwitchRevisionRecord(next).insert(db)
                turnedOff.append(next)
            }
        }
        return turnedOff
    }

    /// The patch with the room taken from the location when a location is set.
    private static func placing(_ patch: SwitchPatch, in db: Database) throws -> SwitchPatch {
        var patch = patch
        if case .set(let locationID?) = patch.locationID {
            guard let roomID = try LocationRecord.roomID(db, ofLocation: locationID) else {
                throw StoreError.invalidField(ValidationError(field: "locationID", reason: "no location \(locationID)"))
            }
            if case .set(let given) = patch.roomID, given != roomID {
                throw StoreError.invalidField(ValidationError(
                    field: "roomID", reason: "location \(locationID) is in room \(roomID), not \(given.map(String.init) ?? "null")"
                ))
            }
            patch.roomID = .set(roomID)
        } else if case .set(let roomID?) = patch.roomID, try !RoomRecord.exists(db, key: roomID) {
            throw StoreError.invalidField(ValidationError(field: "roomID", reason: "no room \(roomID)"))
        }
        return patch
    }

    /// A new revision's room must be its location's room.
    private static func checkPlace(of scanSwitch: ScanSwitch, in db: Database) throws {
        guard let locationID = scanSwitch.locationID else { return }
        guard let roomID = try LocationRecord.roomID(db, ofLocation: locationID) else {
            throw StoreError.invalidField(ValidationError(field: "locationID", reason: "no location \(locationID)"))
        }
        guard scanSwitch.roomID == roomID else {
            throw StoreError.invalidField(ValidationError(
                field: "roomID", reason: "location \(locationID) is in room \(roomID), not \(scanSwitch.roomID.map(String.init) ?? "null")"
            ))
        }
    }
}
