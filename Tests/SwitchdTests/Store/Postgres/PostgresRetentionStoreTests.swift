import Foundation
import ScanContract
import Testing
@testable import SwitchdStore

/// `--keep-days` with the same assertions on SQLite and on a real PostgreSQL server: the same
/// old history goes, the survey and the latest of each stay, and no feed's end goes down when
/// its newest rows are deleted (SQLite's counters keep it; PostgreSQL keeps it in `feed_end`).
@Suite("History retention on both databases", postgresInstalled, .postgresServer)
struct PostgresRetentionStoreTests {
    static let old = HistoryRetentionTests.old
    static let now = HistoryRetentionTests.now

    @Test(arguments: StoreBackend.allCases)
    func oldHistoryGoesTheLatestOfEachStaysAndNoFeedsEndGoesDown(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let world = try await PresenceStoreWorld.make(database)
            let location = try await database.createLocation(NewLocation(roomID: world.hall.id, x: 1, y: 2))
            let survey = try await database.updateSwitch(
                of: .default, with: SwitchPatch(scanning: true, mode: .survey, locationID: .set(location.id)), at: Self.old
            ).scanSwitch.revision
            _ = try await database.ingest(HistoryRetentionTests.batch(3, revision: survey), at: Self.old)
            // Every locate reading is old: the newest readings of the feed go.
            let locate = try await database.updateSwitch(
                of: .default, with: SwitchPatch(scanning: true, mode: .locate, storeData: true), at: Self.old
            ).scanSwitch.revision
            for count in [3, 3, 1] {
                _ = try await database.ingest(HistoryRetentionTests.batch(count, revision: locate), at: Self.old)
            }

            let quiet = try ScannerID("quiet")
            _ = try await database.createScanner(NewScanner(id: quiet), at: Self.old)
            let ago = Self.old.timeIntervalSince(PostgresPresenceStoreTests.start)
            let recent = Self.now.timeIntervalSince(PostgresPresenceStoreTests.start)
            for (scanner, seconds) in [(ScannerID.default, ago), (.default, ago + 1), (.default, recent), (quiet, ago)] {
                _ = try await world.position(in: world.hall, at: seconds, scanner: scanner)
            }

            // Three old events queued for the webhook: delivered, pending, dead. The newest goes.
            _ = try await database.createWebhook(NewWebhook(url: "http://127.0.0.1:9/hook"), secret: "s", at: Self.old)
            let (floorID, roomID, oldMs) = (world.floor.id, world.hall.id, Self.old.milliseconds)
            try await database.writeStatements { sql in
                for offset in [0, 1, 2] as [Int64] {
                    try sql.execute("""
                        INSERT INTO presence_event (scanner_id, kind, place, floor_id, room_id, time_ms) VALUES ('default', 'entered', 'room', ?, ?, ?)
                        """, [.integer(floorID), .integer(roomID), .integer(oldMs + offset)])
                }
                try sql.execute("""
                    UPDATE webhook_delivery SET state = CASE event_id WHEN 1 THEN 'delivered' ELSE 'dead' END, last_attempt_ms = ?
                    WHERE event_id IN (1, 3)
                    """, [.integer(oldMs)])
            }
            let ends = (readings: try await database.endOfMeasurementFeed(), events: try await database.endOfPresenceEventFeed())
            #expect(ends.readings == 10 && ends.events == 3)

            let pruned = try await database.pruneHistory(before: HistoryRetentionTests.cutoff, chunk: 2)
            #expect(pruned == PrunedHistory(readings: 7, batches: 3, positions: 2, tagPositions: 0, sightings: 0, events: 2, deliveries: 2))
            let left = try await database.readStatements { sql in
                (
                    modes: try sql.rows("SELECT mode FROM measurement ORDER BY sequence", []).map { try $0.string("mode") },
                    positions: try sql.rows("SELECT scanner_id, time_ms FROM position ORDER BY id", []).map {
                        "\(try $0.string("scanner_id")) \(try $0.int64("time_ms"))"
                    },
                    events: try sql.rows("SELECT id FROM presence_event ORDER BY id", []).map { try $0.int64("id") },
                    deliveries: try sql.rows("SELECT state FROM webhook_delivery ORDER BY id", []).map { try $0.string("state") }
                )
            }
            #expect(left.modes == ["survey", "survey", "survey"])
            #expect(left.positions == ["default \(Self.now.milliseconds)", "quiet \(Self.old.milliseconds)"])
            #expect(left.events == [2] && left.deliveries == ["pending"])
            #expect(try await database.endOfMeasurementFeed() == ends.readings, "the feed's end stays where it was")
            #expect(try await database.endOfPresenceEventFeed() == ends.events)
            #expect(try await database.measurements(matching: MeasurementFilter(), after: 0, limit: 10).endOfFeed == ends.readings)

            #expect(try await database.pruneHistory(before: HistoryRetentionTests.cutoff, chunk: 2).total == 0)
        }
    }
}
