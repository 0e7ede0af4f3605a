import Foundation
import ScanContract

extension AppDatabase {
    /// Adds messages to the end of the MQTT outbox, in one transaction, and returns them with
    /// their IDs.
    ///
    /// - Throws: ``StoreError/invalidField(_:)`` for an empty topic or a QoS other than 0 or 1
    ///   (nothing is stored then).
    package func enqueueMQTT(_ entries: [MQTTOutboxEntry], at now: Date) async throws -> [MQTTOutboxEntry] {
        try Self.validate(entries)
        return try await writeStatements { sql in try Self.insert(entries, at: now, in: sql) }
    }

    /// Adds `entries` to the outbox and moves the presence cursor to `eventID`, in one
    /// transaction: the presence event is in the outbox exactly once, whatever stops switchd.
    ///
    /// - Throws: as ``enqueueMQTT(_:at:)``; nothing is stored and the cursor stays then.
    package func enqueueMQTT(_ entries: [MQTTOutboxEntry], at now: Date, presenceCursor eventID: Int64) async throws -> [MQTTOutboxEntry] {
        try Self.validate(entries)
        return try await writeStatements { sql in
            let stored = try Self.insert(entries, at: now, in: sql)
            try sql.execute("UPDATE mqtt_presence_cursor SET last_event_id = ? WHERE id = 1", [.integer(eventID)])
            return stored
        }
    }

    /// The last presence event put in the MQTT outbox; on the first call ever, `start` (stored).
    package func mqttPresenceCursor(startingAt start: Int64) async throws -> Int64 {
        try await writeStatements { sql in
            try sql.execute("INSERT INTO mqtt_presence_cursor (id, last_event_id) VALUES (1, ?) ON CONFLICT (id) DO NOTHING", [.integer(start)])
            return try sql.row("SELECT last_event_id FROM mqtt_presence_cursor WHERE id = 1", [])?.int64("last_event_id") ?? start
        }
    }

    static func validate(_ entries: [MQTTOutboxEntry]) throws {
        for entry in entries {
            guard !entry.topic.isEmpty else { throw StoreError.invalidField(ValidationError(field: "topic", reason: "must not be empty")) }
            guard entry.qos == 0 || entry.qos == 1 else {
                throw StoreError.invalidField(ValidationError(field: "qos", reason: "must be 0 or 1, got \(entry.qos)"))
            }
        }
    }

    /// Adds `entries` to the outbox's end in `sql`'s transaction.
    ///
    /// On PostgreSQL it takes the outbox's lock (``SequencedFeed/mqttOutbox``) until commit, so
    /// IDs commit in order and the publisher, which deletes through the last ID it sent, never
    /// deletes a row committed later below it; and it announces the last ID on ``feedChannel``
    /// (`"mqtt_outbox <id>"`), so the instance publishing to the broker wakes whichever
    /// instance stored them (docs/scale-out.md). Both are no-ops on SQLite, whose one writer
    /// already commits in order and whose publisher is in the same process.
    static func insert(_ entries: [MQTTOutboxEntry], at now: Date, in sql: any StoreTransaction) throws -> [MQTTOutboxEntry] {
        guard !entries.isEmpty else { return [] }
        try sql.lock(SequencedFeed.mqttOutbox.lock)
        let stored = try entries.map { entry in try MQTTOutboxRecord(entry, at: now).inserted(sql).entry }
        if let last = stored.last?.id { try sql.notify(feedChannel, "\(SequencedFeed.mqttOutbox.name) \(last)") }
        return stored
    }

    /// Up to `limit` outbox messages with an ID above `id`, oldest first.
    package func mqttOutbox(after id: Int64, limit: Int) async throws -> [MQTTOutboxEntry] {
        try await readStatements { sql in
            try sql.rows("SELECT \(MQTTOutboxRecord.columns) FROM mqtt_outbox WHERE id > ? ORDER BY id LIMIT ?", [.integer(id), StoreValue(limit)])
                .map { try MQTTOutboxRecord(row: $0).entry }
        }
    }

    /// Deletes the outbox messages with an ID at or below `id`: they have been delivered.
    package func deleteMQTTOutbox(through id: Int64) async throws {
        try await writeStatements { sql in try sql.execute("DELETE FROM mqtt_outbox WHERE id <= ?", [.integer(id)]) }
    }

    /// The highest ID waiting in the outbox, 0 when it is empty: what an instance that
    /// (re)started listening raises its publisher's wake-up to (``insert(_:at:in:)``).
    package func lastMQTTOutboxID() async throws -> Int64 {
        try await readStatements { sql in try sql.row("SELECT MAX(id) AS last FROM mqtt_outbox", [])?.optionalInt64("last") ?? 0 }
    }

    /// Moves the outbox message `id` to `mqtt_outbox_dead` with `reason`, in one transaction: it
    /// can never be published, and the messages after it must go. Nothing happens for an `id`
    /// no longer in the outbox.
    package func deadLetterMQTTOutbox(_ id: Int64, reason: String, at now: Date) async throws {
        try await writeStatements { sql in
            try sql.execute("""
                INSERT INTO mqtt_outbox_dead (id, topic, payload, qos, retain, created_ms, dead_ms, reason)
                SELECT id, topic, payload, qos, retain, created_ms, ?, ? FROM mqtt_outbox WHERE id = ?
                """, [.integer(now.milliseconds), .text(reason), .integer(id)])
            try sql.execute("DELETE FROM mqtt_outbox WHERE id = ?", [.integer(id)])
        }
    }

    /// How many outbox messages were given up as unpublishable (``deadLetterMQTTOutbox(_:reason:at:)``).
    package func mqttDeadLetterCount() async throws -> Int {
        try await readStatements { sql in try sql.row("SELECT COUNT(*) AS dead FROM mqtt_outbox_dead", [])?.int("dead") ?? 0 }
    }

    /// How many messages wait in the outbox.
    package func mqttOutboxDepth() async throws -> Int {
        try await readStatements { sql in try sql.row("SELECT COUNT(*) AS depth FROM mqtt_outbox", [])?.int("depth") ?? 0 }
    }

    /// The scanners whose Home Assistant discovery configuration is published.
    package func mqttDiscoveredScanners() async throws -> Set<String> {
        try await readStatements { sql in Set(try sql.rows("SELECT scanner_id FROM mqtt_discovered_scanner", []).map { try $0.string("scanner_id") }) }
    }

    /// Records that `scannerID`'s discovery configuration was published (`true`) or removed.
    package func setMQTTDiscovered(_ scannerID: String, _ discovered: Bool) async throws {
        try await writeStatements { sql in
            if discovered {
                try sql.execute("INSERT INTO mqtt_discovered_scanner (scanner_id) VALUES (?) ON CONFLICT (scanner_id) DO NOTHING", [.text(scannerID)])
            } else {
                try sql.execute("DELETE FROM mqtt_discovered_scanner WHERE scanner_id = ?", [.text(scannerID)])
            }
        }
    }

    /// The tags whose retained state (and discovery) switchd published.
    package func mqttPublishedTags() async throws -> Set<Int64> {
        try await readStatements { sql in Set(try sql.rows("SELECT tag_id FROM mqtt_published_tag", []).map { try $0.int64("tag_id") }) }
    }

    /// Records that the tags' retained state was published (`true`) or removed.
    package func setMQTTPublished(tags tagIDs: [Int64], _ published: Bool) async throws {
        guard !tagIDs.isEmpty else { return }
        try await writeStatements { sql in
            for tagID in tagIDs {
                if published {
                    try sql.execute("INSERT INTO mqtt_published_tag (tag_id) VALUES (?) ON CONFLICT (tag_id) DO NOTHING", [.integer(tagID)])
                } else {
                    try sql.execute("DELETE FROM mqtt_published_tag WHERE tag_id = ?", [.integer(tagID)])
                }
            }
        }
    }

    /// What each scanner reported in the sightings stored with an ID above `sightingID` (start
    /// from ``lastSightingID()``), and the highest ID read, to pass next time. Reads only the new
    /// rows, by the primary key; sightings of a deleted scanner went with it.
    package func sightingReports(after sightingID: Int64) async throws -> (reports: [ScannerID: SightingReport], lastSightingID: Int64) {
        try await readStatements { sql in
            let last = try sql.row("SELECT MAX(id) AS last FROM sighting WHERE id > ?", [.integer(sightingID)])?.optionalInt64("last") ?? sightingID
            var reports: [ScannerID: SightingReport] = [:]
            let rows = try sql.rows("""
                SELECT scanner_id, COUNT(DISTINCT window_end_ms) AS windows, COUNT(*) AS sightings, MAX(window_end_ms) AS last_end
                FROM sighting WHERE id > ? AND id <= ? GROUP BY scanner_id
                """, [.integer(sightingID), .integer(last)])
            for row in rows {
                reports[try storedScannerID(try row.string("scanner_id"))] = SightingReport(
                    windows: try row.int("windows"), sightings: try row.int("sightings"), lastWindowEnd: Date(milliseconds: try row.int64("last_end"))
                )
            }
            return (reports, last)
        }
    }

    /// The highest sighting ID stored, 0 when none is.
    package func lastSightingID() async throws -> Int64 {
        try await readStatements { sql in try sql.row("SELECT MAX(id) AS last FROM sighting", [])?.optionalInt64("last") ?? 0 }
    }

    /// When switchd last heard from each scanner that uploaded a batch with a row ID above
    /// `batchID`, by the time it received the batch, and the highest batch row ID read (to pass
    /// next time, so only new batches are read; on PostgreSQL, up to the batch horizon).
    ///
    /// Only batches of the scanner registered now count: those a deleted scanner of the same ID
    /// uploaded stay stored, but were taken under its revisions, which `deleted_scanner`
    /// remembers the last of (a batch is stored only under a revision of the scanner registered
    /// then, and a scanner registered again numbers its revisions on from there).
    package func lastBatchContacts(after batchID: Int64) async throws -> (contacts: [ScannerID: Date], lastBatchID: Int64) {
        try await readStatements { sql in
            var contacts: [ScannerID: Date] = [:]
            // On PostgreSQL, batch rows commit out of ID order: only those below the horizon
            // (``MeasurementFeedHorizon``) are read, so none committing later is passed over.
            let horizon = sql is PostgresTransaction ? try MeasurementFeedHorizon.horizon(in: sql).batchID : Int64.max
            let last = try sql.row("SELECT MAX(id) AS last FROM batch WHERE id > ? AND id <= ?", [.integer(batchID), .integer(horizon)])?
                .optionalInt64("last") ?? batchID
            let rows = try sql.rows("""
                SELECT batch.scanner_id, MAX(batch.received_ms) AS received_ms FROM batch
                LEFT JOIN deleted_scanner ON deleted_scanner.scanner_id = batch.scanner_id
                WHERE batch.id > ? AND batch.id <= ? AND batch.revision > COALESCE(deleted_scanner.last_revision, 0)
                GROUP BY batch.scanner_id
                """, [.integer(batchID), .integer(last)])
            for row in rows {
                contacts[try storedScannerID(try row.string("scanner_id"))] = Date(milliseconds: try row.int64("received_ms"))
            }
            return (contacts, last)
        }
    }
}

/// What one scanner reported in a run of stored sightings.
package struct SightingReport: Sendable, Equatable {
    /// The windows it closed (distinct window ends) and the sightings in them.
    package var windows: Int
    package var sightings: Int
    /// The end of its latest window, by its clock.
    package var lastWindowEnd: Date

    package init(windows: Int, sightings: Int, lastWindowEnd: Date) {
        self.windows = windows
        self.sightings = sightings
        self.lastWindowEnd = lastWindowEnd
    }
}
