import Foundation
import GRDB
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
    /// broker that is down gets them when it is back, even after a restart.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown (or already deleted) scanner;
    ///   ``StoreError/invalidField(_:)`` for a removal message the outbox refuses. Nothing is
    ///   deleted then.
    package func deleteScanner(_ scannerID: ScannerID, at now: Date, mqtt: MQTTScannerRemoval?) async throws -> ScannerDeletion {
        if let mqtt { try Self.validate(mqtt.messages) }
        return try await write { db in
            let current = try Self.requireCurrentSwitch(of: scannerID, in: SQLiteTransaction(db: db))
            let id = scannerID.rawValue
            try db.execute(
                sql: "UPDATE token SET revoked_ms = ? WHERE scanner_id = ? AND revoked_ms IS NULL", arguments: [now.milliseconds, id]
            )
            let tokensRevoked = db.changesCount
            let positions = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM position WHERE scanner_id = ?", arguments: [id]) ?? 0
            try Self.deleteWalkUnderWay(of: id, in: SQLiteTransaction(db: db))
            try db.execute(sql: "DELETE FROM scanner WHERE id = ?", arguments: [id])
            try db.execute(sql: """
                INSERT INTO deleted_scanner (scanner_id, last_revision, deleted_ms) VALUES (?, ?, ?)
                ON CONFLICT (scanner_id) DO UPDATE SET
                    last_revision = MAX(last_revision, excluded.last_revision), deleted_ms = excluded.deleted_ms
                """, arguments: [id, current.revision, now.milliseconds])
            var queued: [MQTTOutboxEntry] = []
            if let mqtt {
                queued = try Self.insert(mqtt.messages, at: now, in: db)
                if mqtt.removesDiscovery {
                    try db.execute(sql: "DELETE FROM mqtt_discovered_scanner WHERE scanner_id = ?", arguments: [id])
                }
            }
            return ScannerDeletion(lastRevision: current.revision, tokensRevoked: tokensRevoked, positionsDeleted: positions, mqttQueued: queued)
        }
    }

    /// The revision a scanner registered now under `scannerID` starts at: 1, or one past the
    /// last revision of the scanner deleted under that ID.
    static func firstRevision(of scannerID: ScannerID, in sql: any StoreTransaction) throws -> Int {
        let deleted = try sql.row("SELECT last_revision FROM deleted_scanner WHERE scanner_id = ?", [.text(scannerID.rawValue)])
        return (try deleted?.int("last_revision") ?? 0) + 1
    }
}
