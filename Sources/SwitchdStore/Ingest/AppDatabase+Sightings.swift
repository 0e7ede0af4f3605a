import Foundation
import Positioning
import ScanContract

/// What storing a batch of sightings did.
package struct SightingIngest: Sendable {
    package var stored: Int
    package var ignored: Int
    /// Each tag heard, with the end of its latest window in the batch.
    package var tagsHeard: [Int64: Date]
    /// Events raised: missing tags heard, as presence events (`GET /v1/events`, webhooks, MQTT)
    /// that are also their tags' events (`GET /v1/tags/{id}/events`); then the batch's
    /// telemetry's `batteryLow`.
    package var presenceEvents: [PresenceEvent] = []
    /// Whether registered beacons were heard, or a tag being recorded at a reference point
    /// (``AppDatabase/createTagReference(_:for:at:)``): the fingerprint map changed.
    package var beaconsHeard = false
    /// The ID of the last sighting stored; nil when none was.
    package var lastSightingID: Int64?
}

extension AppDatabase {
    /// Stores the sightings of registered tags and beacons (others are counted as ignored), in
    /// one transaction; raises the event of a missing tag heard (once until it is marked missing
    /// again), as a presence event with its tag (which queues its webhook deliveries); re-estimates the scanner's receive offset when it heard registered beacons;
    /// copies a recorded tag's windows into its reference point; keeps the batch's telemetry
    /// (``storeTelemetry(_:from:threshold:outlines:generation:in:)``, `batteryLow` by `threshold`).
    ///
    /// - Throws: ``StoreError/invalidField(_:)`` naming what ``SightingBatch/validate()``
    ///   refused; ``StoreError/notFound(_:)`` for an unknown scanner. Nothing is stored then.
    package func ingestSightings(
        _ batch: SightingBatch, reading statistic: TagRSSIStatistic, batteryLow threshold: BatteryLowThreshold = BatteryLowThreshold()
    ) async throws -> SightingIngest {
        try validate(batch.validate)
        let (cache, generation) = (outlineCache, outlineCache.generation)
        return try await writeStatements { sql in
            guard try sql.row("SELECT id FROM scanner WHERE id = ?", [.text(batch.scannerID.rawValue)]) != nil else {
                throw StoreError.notFound("no scanner \(batch.scannerID)")
            }
            var ingest = SightingIngest(stored: 0, ignored: 0, tagsHeard: [:])
            var heardBeacons = false
            for sighting in batch.sightings {
                let tag = try TagRecord.fetch(sql, identity: sighting.identity)
                let beaconID = tag == nil ? try Self.beaconID(of: sighting.identity, in: sql) : nil
                guard tag != nil || beaconID != nil else {
                    ingest.ignored += 1
                    continue
                }
                let record = SightingRecord(sighting, scannerID: batch.scannerID, tagID: tag?.id, beaconID: beaconID)
                ingest.lastSightingID = try record.inserted(sql)
                ingest.stored += 1
                heardBeacons = heardBeacons || beaconID != nil
                guard let tag, let tagID = tag.id else { continue }
                if try Self.recordReference(record, tagID: tagID, in: sql) { ingest.beaconsHeard = true }
                ingest.tagsHeard[tagID] = max(ingest.tagsHeard[tagID] ?? .distantPast, sighting.windowEnd)
                if tag.missing, !tag.missingHeard, try Self.markMissingTagHeard(tagID, in: sql) {
                    let floorID = try ScannerPlacementRecord.fetch(sql, of: batch.scannerID)?.floorID
                    let presence = PresenceEventRecord(missingTag: tagID, heardBy: batch.scannerID, floorID: floorID, time: sighting.windowEnd)
                    ingest.presenceEvents.append(try Self.insertMissingTagEvent(presence, in: sql))
                }
            }
            if heardBeacons { try Self.recalibrate(batch.scannerID, reading: statistic, in: sql) }
            ingest.presenceEvents += try Self.storeTelemetry(batch.telemetry ?? [], from: batch.scannerID, threshold: threshold, outlines: cache, generation: generation, in: sql)
            ingest.beaconsHeard = ingest.beaconsHeard || heardBeacons
            return ingest
        }
    }

    /// Marks a missing tag heard, once: true when this transaction is the one that did (on
    /// PostgreSQL another instance's may have, since the tag was read).
    private static func markMissingTagHeard(_ tagID: Int64, in sql: any StoreTransaction) throws -> Bool {
        try sql.execute("UPDATE tag SET missing_heard = ? WHERE id = ? AND missing_heard = ?", [.boolean(true), .integer(tagID), .boolean(false)]) == 1
    }

    /// Stores a `missingTagHeard` presence event (under the event feed's lock, announced to the
    /// other instances on commit) and returns it with its ID.
    private static func insertMissingTagEvent(_ record: PresenceEventRecord, in sql: any StoreTransaction) throws -> PresenceEvent {
        try record.inserted(sql).event()
    }

    /// The registered beacon with this iBeacon identity, if any.
    private static func beaconID(of identity: TagIdentity, in sql: any StoreTransaction) throws -> Int64? {
        guard case .iBeacon(let id) = identity else { return nil }
        return try BeaconRecord.holder(sql, uuid: id.uuid, major: Int(id.major), minor: Int(id.minor))
    }

    /// The tag, and what each fixed scanner heard of it in its latest window ending in
    /// `from...until` (scanners that are not placed are left out), among the sightings stored up
    /// to ID `storedUpTo` and every sighting of the window ending at `until`, whichever instance
    /// stored it (all sightings when nil: a window's posts may reach several instances, and the
    /// one that closes it locates from all of them, docs/scale-out.md), with each scanner's
    /// placement and receive offset in use, its RSSI the window's `statistic`; and the bound that
    /// was read up to (`storedUpTo` widened to the window's last sighting; nil when nil), for the
    /// other reads of the same close (``readingAboveMedian(_:of:)``).
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown tag.
    package func hearings(
        of tagID: Int64, from: Date, until: Date, storedUpTo: Int64? = nil, reading statistic: TagRSSIStatistic
    ) async throws -> (tag: Tag, hearings: [FixedScannerHearing], storedUpTo: Int64?) {
        try await readStatements { sql in
            let tag = try Self.tagRecord(tagID, in: sql).tag()
            var upTo = storedUpTo ?? Int64.max
            if storedUpTo != nil, let window = try sql.row(
                "SELECT MAX(id) AS last FROM sighting WHERE tag_id = ? AND window_end_ms = ?", [.integer(tagID), .integer(until.milliseconds)]
            )?.optionalInt64("last") {
                upTo = max(upTo, window)
            }
            let rows = try sql.rows("""
                SELECT s.scanner_id, \(statistic.sql(sighting: "s")) AS rssi, p.floor_id, p.x, p.y, p.height, p.path_loss_exponent,
                       COALESCE(p.receive_offset_override, p.estimated_receive_offset, 0) AS receive_offset
                FROM sighting s JOIN scanner_placement p ON p.scanner_id = s.scanner_id
                WHERE s.tag_id = ? AND s.window_end_ms BETWEEN ? AND ?
                  AND s.id = (
                    SELECT s2.id FROM sighting s2
                    WHERE s2.tag_id = s.tag_id AND s2.scanner_id = s.scanner_id AND s2.window_end_ms BETWEEN ? AND ? AND s2.id <= ?
                    ORDER BY s2.window_end_ms DESC, s2.id DESC LIMIT 1
                  )
                ORDER BY s.scanner_id
                """, [
                    .integer(tagID), .integer(from.milliseconds), .integer(until.milliseconds), .integer(from.milliseconds),
                    .integer(until.milliseconds), .integer(upTo),
                ])
            let hearings = try rows.map { row in
                FixedScannerHearing(
                    scanner: try row.string("scanner_id"), floorID: try row.int64("floor_id"), x: try row.double("x"), y: try row.double("y"),
                    height: try row.double("height"), receiveOffset: try row.double("receive_offset"),
                    pathLossExponent: try row.double("path_loss_exponent"), rssi: try row.double("rssi")
                )
            }
            return (tag, hearings, storedUpTo.map { _ in upTo })
        }
    }

    /// The tag's sightings, newest first, at most `limit`.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown tag.
    package func sightings(of tagID: Int64, limit: Int) async throws -> [StoredSighting] {
        try await readStatements { sql in
            _ = try Self.tagRecord(tagID, in: sql)
            return try SightingRecord.newestOfTag(sql, tagID, limit: limit).map { try $0.storedSighting() }
        }
    }
}
