import Foundation
import GRDB
import Positioning
import ScanContract

/// What storing a batch of sightings did.
package struct SightingIngest: Sendable {
    package var stored: Int
    package var ignored: Int
    /// Each tag heard, with the end of its latest window in the batch.
    package var tagsHeard: [Int64: Date]
    /// Events raised: missing tags heard, as presence events (`GET /v1/events`, webhooks, MQTT)
    /// that are also their tags' events (`GET /v1/tags/{id}/events`).
    package var presenceEvents: [PresenceEvent] = []
    /// Whether registered beacons were heard: the fingerprint map changed.
    package var beaconsHeard = false
    /// The ID of the last sighting stored; nil when none was.
    package var lastSightingID: Int64?
}

extension AppDatabase {
    /// Stores the sightings of registered tags and beacons (others are counted as ignored), in
    /// one transaction; raises the event of a missing tag heard (once until it is marked missing
    /// again), as a presence event with its tag (which queues its webhook deliveries); re-estimates the scanner's receive offset when it heard registered beacons.
    ///
    /// - Throws: ``StoreError/invalidField(_:)`` naming what ``SightingBatch/validate()``
    ///   refused; ``StoreError/notFound(_:)`` for an unknown scanner. Nothing is stored then.
    package func ingestSightings(_ batch: SightingBatch, reading statistic: TagRSSIStatistic) async throws -> SightingIngest {
        try validate(batch.validate)
        return try await write { db in
            guard try ScannerRecord.exists(db, key: batch.scannerID.rawValue) else { throw StoreError.notFound("no scanner \(batch.scannerID)") }
            var ingest = SightingIngest(stored: 0, ignored: 0, tagsHeard: [:])
            var heardBeacons = false
            for sighting in batch.sightings {
                let tag = try TagRecord.filter(TagRecord.Columns.identity == sighting.identity.key).fetchOne(db)
                let beaconID = tag == nil ? try Self.beaconID(of: sighting.identity, in: db) : nil
                guard tag != nil || beaconID != nil else {
                    ingest.ignored += 1
                    continue
                }
                var record = SightingRecord(sighting, scannerID: batch.scannerID, tagID: tag?.id, beaconID: beaconID)
                try record.insert(db)
                ingest.lastSightingID = record.id
                ingest.stored += 1
                heardBeacons = heardBeacons || beaconID != nil
                guard var tag, let tagID = tag.id else { continue }
                ingest.tagsHeard[tagID] = max(ingest.tagsHeard[tagID] ?? .distantPast, sighting.windowEnd)
                if tag.missing, !tag.missingHeard {
                    tag.missingHeard = true
                    try tag.update(db)
                    let floorID = try ScannerPlacementRecord.fetchOne(db, key: batch.scannerID.rawValue)?.floorID
                    var presence = PresenceEventRecord(missingTag: tagID, heardBy: batch.scannerID, floorID: floorID, time: sighting.windowEnd)
                    try presence.insert(db)
                    ingest.presenceEvents.append(try presence.event())
                }
            }
            if heardBeacons { try Self.recalibrate(batch.scannerID, reading: statistic, in: db) }
            ingest.beaconsHeard = heardBeacons
            return ingest
        }
    }

    /// The registered beacon with this iBeacon identity, if any.
    private static func beaconID(of identity: TagIdentity, in db: Database) throws -> Int64? {
        guard case .iBeacon(let id) = identity else { return nil }
        return try Int64.fetchOne(db, BeaconRecord.select(BeaconRecord.Columns.id).filter(
            BeaconRecord.Columns.uuid == id.uuid && BeaconRecord.Columns.major == Int(id.major) && BeaconRecord.Columns.minor == Int(id.minor)
        ))
    }

    /// The tag, and what each fixed scanner heard of it in its latest window ending in
    /// `from...until` (scanners that are not placed are left out), among the sightings stored up
    /// to ID `storedUpTo` (all when nil), with each scanner's placement and receive offset in use,
    /// its RSSI the window's `statistic`.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown tag.
    package func hearings(of tagID: Int64, from: Date, until: Date, storedUpTo: Int64? = nil, reading statistic: TagRSSIStatistic) async throws -> (Tag, [FixedScannerHearing]) {
        let upTo = storedUpTo ?? Int64.max
        return try await read { db in
            let tag = try Self.tagRecord(tagID, in: db).tag()
            let rows = try Row.fetchAll(db, sql: """
                SELECT s.scanner_id, \(statistic.sql(sighting: "s")) AS rssi, p.floor_id, p.x, p.y, p.height, p.path_loss_exponent,
                       COALESCE(p.receive_offset_override, p.estimated_receive_offset, 0) AS offset
                FROM sighting s JOIN scanner_placement p ON p.scanner_id = s.scanner_id
                WHERE s.tag_id = ? AND s.window_end_ms BETWEEN ? AND ?
                  AND s.id = (
                    SELECT s2.id FROM sighting s2
                    WHERE s2.tag_id = s.tag_id AND s2.scanner_id = s.scanner_id AND s2.window_end_ms BETWEEN ? AND ? AND s2.id <= ?
                    ORDER BY s2.window_end_ms DESC, s2.id DESC LIMIT 1
                  )
                ORDER BY s.scanner_id
                """, arguments: [tagID, from.milliseconds, until.milliseconds, from.milliseconds, until.milliseconds, upTo])
            let hearings = rows.map { row in
                FixedScannerHearing(
                    scanner: row["scanner_id"], floorID: row["floor_id"], x: row["x"], y: row["y"], height: row["height"],
                    receiveOffset: row["offset"], pathLossExponent: row["path_loss_exponent"], rssi: row["rssi"]
                )
            }
            return (tag, hearings)
        }
    }

    /// The tag's sightings, newest first, at most `limit`.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown tag.
    package func sightings(of tagID: Int64, limit: Int) async throws -> [StoredSighting] {
        try await read { db in
            _ = try Self.tagRecord(tagID, in: db)
            return try SightingRecord.filter(SightingRecord.Columns.tagID == tagID)
                .order(SightingRecord.Columns.windowEndMs.desc, SightingRecord.Columns.id.desc)
                .limit(limit).fetchAll(db).map { try $0.storedSighting() }
        }
    }
}
