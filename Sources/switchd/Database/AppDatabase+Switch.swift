import Foundation
import GRDB
import ScanContract

/// The result of a switch change: the state now, and whether it is a new revision.
struct SwitchUpdate: Sendable {
    var scanSwitch: ScanSwitch
    var isNewRevision: Bool
}

extension AppDatabase {
    /// The scanner's switch as it is now.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown scanner.
    func currentSwitch(of scannerID: ScannerID) async throws -> ScanSwitch {
        try await writer.read { db in try Self.requireCurrentSwitch(of: scannerID, in: db) }
    }

    /// Applies an admin's change to a scanner's switch; a change that changes nothing keeps the
    /// revision.
    ///
    /// Setting a location sets the room to the location's room. Throws, leaving the switch as it
    /// was: ``StoreError/notFound(_:)`` for an unknown scanner; ``StoreError/conflict(_:)`` when
    /// `expectedRevision` is not the current one; ``StoreError/invalidField(_:)`` naming
    /// `locationID` or `roomID` when they name nothing or disagree, or the field the state machine
    /// refused.
    func updateSwitch(of scannerID: ScannerID, with patch: SwitchPatch, at now: Date) async throws -> SwitchUpdate {
        try await writer.write { db in
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
            try Self.insertRevision(next, in: db)
            return SwitchUpdate(scanSwitch: next, isNewRevision: true)
        }
    }

    /// Turns off every switch whose `{seconds: T}` deadline has passed.
    ///
    /// - Returns: the new revisions, for the switch hub.
    func expireSwitches(at now: Date) async throws -> [ScanSwitch] {
        try await writer.write { db in
            var expired: [ScanSwitch] = []
            for current in try Self.currentSwitches(in: db) where current.deadline != nil {
                let next = current.expiring(at: now)
                if next.revision != current.revision {
                    try Self.insertRevision(next, in: db)
                    expired.append(next)
                }
            }
            return expired
        }
    }

    /// The earliest `{seconds: T}` deadline of a switch that is on, if any.
    func nextSwitchDeadline() async throws -> Date? {
        try await writer.read { db in
            try Self.currentSwitches(in: db).compactMap(\.deadline).min()
        }
    }

    // MARK: - Inside a transaction

    static func currentSwitch(of scannerID: ScannerID, in db: Database) throws -> ScanSwitch? {
        let statement = try db.cachedStatement(sql: """
            SELECT \(SwitchRevisionRow.columns) FROM switch_revision
            WHERE scanner_id = ? ORDER BY revision DESC LIMIT 1
            """)
        return try Row.fetchOne(statement, arguments: [scannerID.rawValue]).map(SwitchRevisionRow.scanSwitch(from:))
    }

    static func requireCurrentSwitch(of scannerID: ScannerID, in db: Database) throws -> ScanSwitch {
        guard let current = try currentSwitch(of: scannerID, in: db) else {
            throw StoreError.notFound("no scanner \(scannerID)")
        }
        return current
    }

    /// One past revision of a scanner's switch, as it is stored now (a deleted room or location
    /// reads as nil).
    static func revision(_ revision: Int, of scannerID: ScannerID, in db: Database) throws -> ScanSwitch? {
        let statement = try db.cachedStatement(sql: """
            SELECT \(SwitchRevisionRow.columns) FROM switch_revision WHERE scanner_id = ? AND revision = ?
            """)
        return try Row.fetchOne(statement, arguments: [scannerID.rawValue, revision]).map(SwitchRevisionRow.scanSwitch(from:))
    }

    static func currentSwitches(in db: Database) throws -> [ScanSwitch] {
        try Row.fetchAll(db, sql: SwitchRevisionRow.currentSQL).map(SwitchRevisionRow.scanSwitch(from:))
    }

    static func insertRevision(_ scanSwitch: ScanSwitch, in db: Database) throws {
        try db.cachedStatement(sql: SwitchRevisionRow.insertSQL).execute(arguments: SwitchRevisionRow.arguments(scanSwitch))
    }

    /// Stores a revision's survey progress (``ScanSwitch/scansCompleted``), which is not a revision.
    static func updateProgress(_ scanSwitch: ScanSwitch, in db: Database) throws {
        try db.cachedStatement(sql: """
            UPDATE switch_revision SET scans_completed = ? WHERE scanner_id = ? AND revision = ?
            """).execute(arguments: [scanSwitch.scansCompleted, scanSwitch.scannerID.rawValue, scanSwitch.revision])
    }

    /// The patch with the room taken from the location when a location is set.
    private static func placing(_ patch: SwitchPatch, in db: Database) throws -> SwitchPatch {
        var patch = patch
        if case .set(let locationID?) = patch.locationID {
            guard let roomID = try roomID(ofLocation: locationID, in: db) else {
                throw StoreError.invalidField(ValidationError(field: "locationID", reason: "no location \(locationID)"))
            }
            if case .set(let given) = patch.roomID, given != roomID {
                throw StoreError.invalidField(ValidationError(
                    field: "roomID", reason: "location \(locationID) is in room \(roomID), not \(given.map(String.init) ?? "null")"
                ))
            }
            patch.roomID = .set(roomID)
        } else if case .set(let roomID?) = patch.roomID, try roomExists(roomID, in: db) == false {
            throw StoreError.invalidField(ValidationError(field: "roomID", reason: "no room \(roomID)"))
        }
        return patch
    }

    /// A new revision's room must be its location's room.
    private static func checkPlace(of scanSwitch: ScanSwitch, in db: Database) throws {
        guard let locationID = scanSwitch.locationID else { return }
        guard let roomID = try roomID(ofLocation: locationID, in: db) else {
            throw StoreError.invalidField(ValidationError(field: "locationID", reason: "no location \(locationID)"))
        }
        guard scanSwitch.roomID == roomID else {
            throw StoreError.invalidField(ValidationError(
                field: "roomID", reason: "location \(locationID) is in room \(roomID), not \(scanSwitch.roomID.map(String.init) ?? "null")"
            ))
        }
    }
}
