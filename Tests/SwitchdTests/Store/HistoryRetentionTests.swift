import Foundation
import GRDB
import Harness
import ScanContract
import Testing
@testable import SwitchdStore

/// `--keep-days`: history older than the cutoff goes, in chunks, from a real SQLite file; the
/// survey, the latest of everything and what a webhook still has to deliver stay.
@Suite("History retention")
struct HistoryRetentionTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static let old = now.addingTimeInterval(-40 * 86_400)
    static let cutoff = now.addingTimeInterval(-30 * 86_400)

    @Test func oldHistoryGoesAndTheSurveyAndTheLatestOfEachStay() async throws {
        let folder = try TemporaryFolder("retention")
        defer { folder.remove() }
        let database = try AppDatabase.open(stateDirectory: folder.url.path)
        let floor = try await database.createFloor(NewFloor(name: "Ground"))
        let room = try await database.createRoom(NewRoom(floorID: floor.id, name: "Lab"))
        let location = try await database.createLocation(NewLocation(roomID: room.id, x: 1, y: 2))

        // Survey readings, old: the radio map, kept.
        let survey = try await database.updateSwitch(
            of: ScannerID.default, with: SwitchPatch(scanning: true, mode: .survey, locationID: .set(location.id)), at: Self.old
        ).scanSwitch.revision
        _ = try await database.ingest(Self.batch(3, revision: survey), at: Self.old)
        // Locate readings: 7 old in three batches of 3, 3 and 1 (chunks of 2 make several passes), 2 recent.
        let locate = try await database.updateSwitch(
            of: ScannerID.default, with: SwitchPatch(scanning: true, mode: .locate, storeData: true), at: Self.old
        ).scanSwitch.revision
        for count in [3, 3, 1] {
            _ = try await database.ingest(Self.batch(count, revision: locate), at: Self.old)
        }
        _ = try await database.ingest(Self.batch(2, revision: locate), at: Self.now)

        // Positions of two scanners: "quiet" was last heard 40 days ago, and keeps that one.
        _ = try await database.createScanner(NewScanner(id: try ScannerID("quiet")), at: Self.old)
        for (scanner, time) in [(ScannerID.default, Self.old), (.default, Self.old), (.default, Self.now), (try ScannerID("quiet"), Self.old)] {
            _ = try await database.createPosition(NewPosition(
                scannerID: scanner, time: time, building: floor.building, floor: floor.id, x: 1, y: 1,
                roomID: room.id, nearestLocationID: nil, accuracyMetres: 2, method: "test"
            ))
        }

        // A tag last seen 40 days ago: its latest position and sighting stay, the older ones go.
        let tag = try await database.createTag(NewTag(name: "bike", identity: .address(try MACAddress("C0:FF:EE:00:00:09"))))
        let webhook = try await database.createWebhook(NewWebhook(url: "http://127.0.0.1:9/hook"), secret: "s", at: Self.old)
        let oldMs = Self.old.milliseconds
        try await database.writer.write { db in
            for offset in [0, 1_000, 2_000] as [Int64] {
                try db.execute(sql: """
                    INSERT INTO tag_position (tag_id, time_ms, floor_id, x, y, accuracy_metres, method, scanners_heard)
                    VALUES (?, ?, ?, 1, 1, 2, 'test', 3)
                    """, arguments: [tag.id, oldMs + offset, floor.id])
                try db.execute(sql: """
                    INSERT INTO sighting (scanner_id, tag_id, window_start_ms, window_end_ms, count, median_rssi, max_rssi)
                    VALUES ('default', ?, ?, ?, 1, -70, -70)
                    """, arguments: [tag.id, oldMs + offset, oldMs + offset + 1_000])
            }
            // Three old presence events, each queued for the webhook (a trigger does it): one
            // delivered, one dead, one still pending; the tag's old missing-tag event and old
            // presence event (their deliveries dead); and one recent event.
            for (index, time) in [oldMs, oldMs, oldMs].enumerated() {
                try db.execute(sql: """
                    INSERT INTO presence_event (scanner_id, kind, place, floor_id, room_id, time_ms)
                    VALUES ('default', 'entered', 'room', ?, ?, ?)
                    """, arguments: [floor.id, room.id, time + Int64(index)])
            }
            try db.execute(sql: """
                INSERT INTO presence_event (scanner_id, kind, time_ms, tag_id) VALUES ('default', 'missingTagHeard', ?, ?)
                """, arguments: [oldMs + 3, tag.id])
            try db.execute(sql: "INSERT INTO presence_event (kind, time_ms, tag_id) VALUES ('away', ?, ?)", arguments: [oldMs + 3, tag.id])
            try db.execute(sql: """
                INSERT INTO presence_event (scanner_id, kind, place, floor_id, room_id, time_ms)
                VALUES ('default', 'entered', 'room', ?, ?, ?)
                """, arguments: [floor.id, room.id, Self.now.milliseconds + 4])
            try db.execute(sql: """
                UPDATE webhook_delivery SET state = CASE event_id WHEN 1 THEN 'delivered' ELSE 'dead' END, last_attempt_ms = ?
                WHERE event_id IN (1, 2, 4, 5)
                """, arguments: [oldMs])
        }
        #expect(webhook.id > 0)

        let surveyVersion = try await database.surveyVersion()
        let pruned = try await database.pruneHistory(before: Self.cutoff, chunk: 2)

        #expect(pruned.readings == 7)
        #expect(pruned.batches == 3, "the three old locate batches; the survey's batch stays with its readings")
        #expect(pruned.positions == 2)
        #expect(pruned.tagPositions == 2 && pruned.sightings == 2)
        #expect(pruned.deliveries == 4 && pruned.events == 3)
        let left = try await database.writer.read { db in
            (
                modes: try String.fetchAll(db, sql: "SELECT mode FROM measurement ORDER BY sequence"),
                batches: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM batch"),
                positions: try Int64.fetchAll(db, sql: "SELECT time_ms FROM position ORDER BY id"),
                tagPositions: try Int64.fetchAll(db, sql: "SELECT time_ms FROM tag_position"),
                sightings: try Int64.fetchAll(db, sql: "SELECT window_end_ms FROM sighting"),
                events: try Int64.fetchAll(db, sql: "SELECT id FROM presence_event ORDER BY id"),
                deliveries: try String.fetchAll(db, sql: "SELECT state FROM webhook_delivery ORDER BY id")
            )
        }
        #expect(left.modes == ["survey", "survey", "survey", "locate", "locate"])
        #expect(left.batches == 2)
        #expect(left.positions == [Self.now.milliseconds, Self.old.milliseconds], "default's latest, and quiet's only one")
        #expect(left.tagPositions == [oldMs + 2_000])
        #expect(left.sightings == [oldMs + 3_000])
        #expect(left.events == [3, 4, 6], "the pending one, the missing tag heard and the recent one; not the tag's away")
        #expect(left.deliveries == ["pending", "pending"])
        #expect(try await database.surveyVersion() == surveyVersion, "the radio map did not change")

        // A second pass finds nothing more.
        #expect(try await database.pruneHistory(before: Self.cutoff, chunk: 2).total == 0)
    }

    @Test func anEmptyDatabaseOrOneWithOnlyRecentHistoryLosesNothing() async throws {
        let folder = try TemporaryFolder("retention-empty")
        defer { folder.remove() }
        let database = try AppDatabase.open(stateDirectory: folder.url.path)
        #expect(try await database.pruneHistory(before: Self.cutoff).total == 0)
        let locate = try await database.updateSwitch(
            of: ScannerID.default, with: SwitchPatch(scanning: true, mode: .locate, storeData: true), at: Self.now
        ).scanSwitch.revision
        _ = try await database.ingest(Self.batch(4, revision: locate), at: Self.now)
        #expect(try await database.pruneHistory(before: Self.cutoff).total == 0)
        let left = try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM measurement") }
        #expect(left == 4)
    }

    static func batch(_ count: Int, revision: Int) -> MeasurementBatch {
        let readings = (0..<count).map { index in
            ScanContract.Measurement(
                time: old.addingTimeInterval(Double(index)), rssi: -60 - index, scan: 0,
                observation: .wifi(WiFiObservation(bssid: BSSID(rawValue: 0x02_00_00_00_01_00 + UInt64(index)), ssid: "lab", frequencyMHz: 2412))
            )
        }
        return MeasurementBatch(batchID: UUID(), scannerID: .default, switchRevision: revision, measurements: readings)
    }
}
