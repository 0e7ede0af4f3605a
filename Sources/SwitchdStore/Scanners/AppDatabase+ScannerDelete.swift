import Foundation
import ScanContract

/// The MQTT messages that take a deleted scanner off the broker: empty retained payloads on its
/// state topics and, when Home Assistant discovery is on, on its discovery configurations.
package struct MQTTScannerRemoval: Sendable {
    package var messages: [MQTTOutboxEntry]
    /// Whether `messages` remove the discovery configurations; only then is the scanner struck
    /// from `mqtt_discovered_scanner` (otherwise a later start with discovery on removes them).
    package var removesDiscovery: Bool

    package init(messages: [MQTTOutboxEntry], removesDiscovery: Bool) {
        self.messages = messages
        self.removesDiscovery = removesDiscovery
    }
}

/// What deleting a scanner did.
package struct ScannerDeletion: Sendable {
    /// The revision its switch was at.
    package var lastRevision: Int
    /// Its tokens that were active and are revoked now.
    package var tokensRevoked: Int
    /// The positions it had computed, deleted with it.
    package var positionsDeleted: Int
    /// The MQTT removal as stored in the outbox, with IDs.
    package var mqttQueued: [MQTTOutboxEntry]
}

extension AppDatabase {
    /// Deletes a scanner, in one transaction. What it computed or was told goes with it: its
    /// switch and every revision, its positions, presence state and events (with their webhook
    /// deliveries not yet made), its placement and tag sightings. Its tokens are revoked (kept,
    /// listed, for the audit) so they fail from the next request on. What it measured stays:
    /// batches and readings, survey and locate, so the radio map is what it was; they keep the
    /// scanner ID as text. The ID and last revision are remembered in `deleted_scanner`, so a
    /// scanner registered again under the ID numbers its revisions on from there.
    ///
    /// With `mqtt`, its removal messages go into the MQTT outbox in the same transaction: a
    /// broker that is down gets them when it is back, even after a restart; on PostgreSQL they
    /// are announced with the outbox's other rows (``insert(_:at:in:)``), so the instance
    /// publishing to the broker wakes for them whichever instance deleted the scanner.
    ///
    /// On PostgreSQL the locks are taken in the one order (docs/scale-out.md, "Transactions and
    /// serialisation"): the survey's (a walk under way goes, as ``deleteWalk(_:at:)`` takes it),
    /// the measurement, position and event feeds' (the walk's readings, the scanner's positions
    /// and its presence events may be the newest: each feed's end is kept,
    /// ``SequencedFeed/keepingEnd(in:_:)``),
    /// the scanner's switch lock, and (with `mqtt`) the outbox's last. The deletion is announced
    /// on the switch channel (`"<scanner ID> retired"`), so every instance retires the scanner
    /// from its switch hub as the one that deleted it does: the long-polls and switch streams it
    /// holds end.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown (or already deleted) scanner;
    ///   ``StoreError/invalidField(_:)`` for a removal message the outbox refuses. Nothing is
    ///   deleted then.
    package func deleteScanner(_ scannerID: ScannerID, at now: Date, mqtt: MQTTScannerRemoval?) async throws -> ScannerDeletion {
        if let mqtt { try Self.validate(mqtt.messages) }
        return try await writeStatements { sql in
            try sql.lock(Self.surveyLock)
            return try SequencedFeed.measurements.keepingEnd(in: sql) {
                try SequencedFeed.positions.keepingEnd(in: sql) {
                    try SequencedFeed.presenceEvents.keepingEnd(in: sql) {
                        try sql.lock(Self.switchLock(scannerID))
                        return try Self.deleteScanner(scannerID, at: now, mqtt: mqtt, in: sql)
                    }
                }
            }
        }
    }

    /// ``deleteScanner(_:at:mqtt:)``'s body, its locks held.
    private static func deleteScanner(
        _ scannerID: ScannerID, at now: Date, mqtt: MQTTScannerRemoval?, in sql: any StoreTransaction
    ) throws -> ScannerDeletion {
        let current = try requireCurrentSwitch(of: scannerID, in: sql)
        let id = StoreValue.text(scannerID.rawValue)
        let tokensRevoked = try sql.execute(
            "UPDATE token SET revoked_ms = ? WHERE scanner_id = ? AND revoked_ms IS NULL", [.integer(now.milliseconds), id]
        )
        let positions = try sql.row("SELECT COUNT(*) AS n FROM position WHERE scanner_id = ?", [id])?.int("n") ?? 0
        try deleteWalkUnderWay(of: scannerID.rawValue, in: sql)
        try sql.execute("DELETE FROM scanner WHERE id = ?", [id])
        try clearSettings(of: scannerID, in: sql)
        // Its unused enrolment codes go with it: registered again, the ID is a new scanner that
        // an old code must not enrol (used ones stay, with the token they issued).
        try sql.execute("DELETE FROM enrolment_code WHERE scanner_id = ? AND used_ms IS NULL", [id])
        try sql.execute("""
            INSERT INTO deleted_scanner (scanner_id, last_revision, deleted_ms) VALUES (?, ?, ?)
            ON CONFLICT (scanner_id) DO UPDATE SET
                last_revision = CASE WHEN excluded.last_revision > deleted_scanner.last_revision
                    THEN excluded.last_revision ELSE deleted_scanner.last_revision END,
                deleted_ms = excluded.deleted_ms
            """, [id, .integer(Int64(current.revision)), .integer(now.milliseconds)])
        try sql.notify(switchChannel, "\(scannerID.rawValue) \(retiredScanner)")
        var queued: [MQTTOutboxEntry] = []
        if let mqtt {
            queued = try insert(mqtt.messages, at: now, in: sql)
            if mqtt.removesDiscovery {
                try sql.execute("DELETE FROM mqtt_discovered_scanner WHERE scanner_id = ?", [id])
            }
        }
        return ScannerDeletion(lastRevision: current.revision, tokensRevoked: tokensRevoked, positionsDeleted: positions, mqttQueued: queued)
    }

    /// The revision a scanner registered now under `scannerID` starts at: 1, or one past the
    /// last revision of the scanner deleted under that ID.
    static func firstRevision(of scannerID: ScannerID, in sql: any StoreTransaction) throws -> Int {
        let deleted = try sql.row("SELECT last_revision FROM deleted_scanner WHERE scanner_id = ?", [.text(scannerID.rawValue)])
        return (try deleted?.int("last_revision") ?? 0) + 1
    }
}
