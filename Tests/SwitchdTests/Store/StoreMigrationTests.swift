import Foundation
import GRDB
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// The migrations are frozen: a fresh database gets exactly the schema the shipped code made,
/// and a database the shipped code filled opens with every row readable. The fixtures were made
/// by a switchd built from the shipped code (Fixtures/README.md says how).
@Suite("Store migrations")
struct StoreMigrationTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// One `sqlite_master` entry, its SQL with every run of white space made one space (the
    /// migrations' text is indented differently than when it shipped; SQLite keeps it verbatim).
    struct SchemaEntry: Codable, Hashable, CustomStringConvertible {
        var type: String
        var name: String
        var tbl_name: String
        var sql: String?

        var normalised: SchemaEntry {
            var entry = self
            entry.sql = sql.map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            return entry
        }

        var description: String { "\(type) \(name): \(sql ?? "")" }
    }

    static func shippedSchema() throws -> [SchemaEntry] {
        let data = try Data(contentsOf: fixtures.appendingPathComponent("shipped-schema.json"))
        return try JSONDecoder().decode([SchemaEntry].self, from: data).map(\.normalised)
    }

    static func schema(of writer: any DatabaseWriter) async throws -> [SchemaEntry] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name
                """).map { row in SchemaEntry(type: row["type"], name: row["name"], tbl_name: row["tbl_name"], sql: row["sql"]) }
        }.map(\.normalised)
    }

    /// Tables and indexes that migrations after the shipped ones add (`v4-events-and-webhooks`,
    /// `v4-tags`, `v4-mqtt`, `v4-georeference-and-allow-lists`, `v4-tag-presence-events`,
    /// `v4-emitter-summary`, `v4-scanner-delete`, which also rebuilds `batch` under its own name,
    /// `v4-history-indexes`, `v4-walk-survey`, `v4-feed-ends`, `v4-tag-position-window`, `v4-tag-track`) and keep (`v4-tag-events-in-presence` drops
    /// `tag_event` and its indexes, `v4-emitter-summary-by-batch` the summary's insert trigger):
    /// exactly these, no more.
    static let addedSinceShipped: Set<String> = [
        "presence_event", "presence_event_scanner", "presence_state", "presence_cursor", "webhook", "webhook_delivery",
        "webhook_delivery_state", "webhook_delivery_event", "presence_event_outbox",
        "tag", "scanner_placement", "scanner_placement_floor", "sighting", "sighting_tag_time", "sighting_beacon",
        "sighting_scanner", "tag_position", "tag_position_tag", "tag_position_floor", "tag_position_room",
        "mqtt_outbox", "mqtt_discovered_scanner", "mqtt_presence_cursor", "mqtt_outbox_dead",
        "georeference_point", "presence_event_tag",
        "emitter_cell", "emitter_cell_remove", "emitter_cell_move",
        "deleted_scanner",
        "batch_received", "batch_stored_newest", "position_time", "switch_revision_changed",
        "walk", "walk_revision", "walk_walking", "walk_from_location", "walk_to_location", "walk_room", "location_walk",
        "feed_end", "tag_position_window", "tag_track", "tag_presence_state", "mqtt_published_tag",
        "tag_key", "enrolment_code", "room_outline_point", "scanner_health", "scanner_settings",
        "tag_reference", "tag_reference_tag", "tag_reference_window", "tag_reference_window_scanner",
        "emitter_telemetry", "presence_event_beacon", "beacon_health", "sighting_beacon_time",
        "feed_mark",
        "beacon_hearer", "beacon_hearer_check",
        "mqtt_bridge_status",
    ]

    @Test func laterMigrationsAddExactlyTheirOwnTablesAndIndexes() async throws {
        let shippedNames = Set(try Self.shippedSchema().map(\.name))
        let fresh = try await Self.schema(of: AppDatabase.inMemory().writer)
        #expect(Set(fresh.map(\.name)).subtracting(shippedNames) == Self.addedSinceShipped)
    }

    /// The migrations that shipped at 817113f, run alone, still build exactly the shipped schema.
    @Test func aFreshDatabaseHasTheShippedSchema() async throws {
        let shipped = try Self.shippedSchema()
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: Self.lastShippedMigration)
        let fresh = try await Self.schema(of: queue)
        #expect(fresh.count == shipped.count)
        for (freshEntry, shippedEntry) in zip(fresh, shipped) {
            #expect(freshEntry == shippedEntry)
        }
    }

    static let lastShippedMigration = "v3-tokens"

    /// What came after: the geo-reference points and the allow-list columns of switch revisions.
    @Test func laterMigrationsAddTheGeoreferenceAndTheAllowList() async throws {
        let fresh = try await Self.schema(of: AppDatabase.inMemory().writer)
        #expect(fresh.contains { $0.type == "table" && $0.name == "georeference_point" })
        let revisions = try #require(fresh.first { $0.name == "switch_revision" }?.sql)
        #expect(revisions.contains("allow_bssids TEXT") && revisions.contains("allow_ssids TEXT"))
    }

    /// Rebuilding `token` for the visitor role keeps every token, its ID, hash and revocation and
    /// the sequence past a deleted last token; a visitor token can then be stored, a visitor token
    /// bound to a scanner still cannot.
    @Test func tokensSurviveTheRebuildForVisitorTokens() async throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v4-tags-in-presence")
        @Sendable func hashOf(_ byte: String) -> String { "x'" + String(repeating: byte, count: 32) + "'" }
        try await queue.write { db in
            #expect(throws: DatabaseError.self, "no visitor role before") {
                try db.execute(sql: "INSERT INTO token (name, role, hash, created_ms) VALUES ('v', 'visitor', \(hashOf("01")), 0)")
            }
            try db.execute(sql: """
                INSERT INTO token (name, role, hash, created_ms) VALUES ('admin', 'admin', \(hashOf("ab")), 1);
                INSERT INTO token (name, role, scanner_id, hash, created_ms, revoked_ms) VALUES ('pi', 'scanner', 'default', \(hashOf("02")), 2, 3);
                INSERT INTO token (name, role, hash, created_ms) VALUES ('gone', 'reader', \(hashOf("03")), 4);
                DELETE FROM token WHERE id = 3;
                """)
        }
        try AppDatabase.migrator.migrate(queue)
        try await queue.write { db in
            #expect(try Int64.fetchAll(db, sql: "SELECT id FROM token ORDER BY id") == [1, 2])
            #expect(try Int64.fetchOne(db, sql: "SELECT revoked_ms FROM token WHERE id = 2") == 3)
            #expect(try String.fetchOne(db, sql: "SELECT hex(hash) FROM token WHERE id = 1") == String(repeating: "AB", count: 32))
            try db.execute(sql: "INSERT INTO token (name, role, hash, created_ms) VALUES ('visitor', 'visitor', \(hashOf("04")), 5)")
            #expect(try Int64.fetchAll(db, sql: "SELECT id FROM token ORDER BY id") == [1, 2, 4])
            #expect(throws: DatabaseError.self, "only scanner tokens name a scanner") {
                try db.execute(sql: "INSERT INTO token (name, role, scanner_id, hash, created_ms) VALUES ('v', 'visitor', 'default', \(hashOf("05")), 6)")
            }
        }
    }

    /// Rebuilding `presence_event` for tag events keeps every event, its ID, the sequence past a
    /// deleted last event, and the webhook deliveries queued for them; new events still queue theirs.
    @Test func presenceEventsAndTheirDeliveriesSurviveTheRebuildForTagEvents() async throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v4-georeference-and-allow-lists")
        try await queue.write { db in
            try db.execute(sql: """
                INSERT INTO webhook (url, secret, events, created_ms) VALUES ('https://example.org/hook', 'whsec_x', 'entered,away', 0);
                INSERT INTO presence_event (scanner_id, kind, place, floor_id, room_id, time_ms) VALUES ('default', 'entered', 'room', 1, 2, 10);
                INSERT INTO presence_event (scanner_id, kind, time_ms) VALUES ('default', 'away', 20);
                INSERT INTO presence_event (scanner_id, kind, time_ms) VALUES ('default', 'back', 30);
                DELETE FROM presence_event WHERE id = 3;
                """)
        }
        try AppDatabase.migrator.migrate(queue)
        try await queue.write { db in
            #expect(try Int64.fetchAll(db, sql: "SELECT id FROM presence_event ORDER BY id") == [1, 2])
            #expect(try Int64.fetchAll(db, sql: "SELECT event_id FROM webhook_delivery ORDER BY event_id") == [1, 2])
            #expect(try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'presence_event'") == 3)
            try db.execute(sql: """
                INSERT INTO tag (name, identity, tx_power, missing, missing_heard, height, metadata) VALUES ('Bike', 'address:02:00:00:00:00:01', -59, 1, 1, 1, '{}');
                INSERT INTO presence_event (scanner_id, kind, time_ms, tag_id) VALUES ('default', 'missingTagHeard', 40, 1);
                INSERT INTO presence_event (scanner_id, kind, time_ms) VALUES ('default', 'away', 50);
                """)
            #expect(try Int64.fetchAll(db, sql: "SELECT id FROM presence_event ORDER BY id") == [1, 2, 4, 5])
            #expect(try Int64.fetchAll(db, sql: "SELECT event_id FROM webhook_delivery ORDER BY event_id") == [1, 2, 5])
            #expect(throws: DatabaseError.self, "a tag event names its tag") {
                try db.execute(sql: "INSERT INTO presence_event (scanner_id, kind, time_ms) VALUES ('default', 'missingTagHeard', 60)")
            }
        }
    }

    /// Rebuilding `presence_event` for tags' presence keeps every event, its ID, the sequence past
    /// a deleted last event and the queued deliveries; a webhook made before keeps getting what it
    /// got (scanners' events and `missingTagHeard`), not tags' presence; an event names one
    /// scanner or one tag, `missingTagHeard` both; the tag cursor starts after the stored tag positions.
    @Test func presenceEventsDeliveriesAndWebhooksSurviveTheRebuildForTagPresence() async throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v4-tag-track")
        try await queue.write { db in
            try db.execute(sql: """
                INSERT INTO webhook (url, secret, events, created_ms) VALUES ('https://example.org/hook', 'whsec_x', 'entered,away,missingTagHeard', 0);
                INSERT INTO floor (building, name, level) VALUES ('Main', 'Ground', 0);
                INSERT INTO tag (name, identity, tx_power, missing, missing_heard, height, metadata) VALUES ('Bike', 'address:02:00:00:00:00:01', -59, 1, 1, 1, '{}');
                INSERT INTO tag_position (tag_id, time_ms, floor_id, x, y, accuracy_metres, method, scanners_heard) VALUES (1, 5, 1, 1, 1, 1, 'fused', 3);
                INSERT INTO presence_event (scanner_id, kind, place, floor_id, room_id, time_ms) VALUES ('default', 'entered', 'room', 1, 2, 10);
                INSERT INTO presence_event (scanner_id, kind, time_ms, tag_id) VALUES ('default', 'missingTagHeard', 20, 1);
                INSERT INTO presence_event (scanner_id, kind, time_ms) VALUES ('default', 'back', 30);
                DELETE FROM presence_event WHERE id = 3;
                """)
        }
        try AppDatabase.migrator.migrate(queue)
        try await queue.write { db in
            #expect(try Int64.fetchAll(db, sql: "SELECT id FROM presence_event ORDER BY id") == [1, 2])
            #expect(try Int64.fetchAll(db, sql: "SELECT event_id FROM webhook_delivery ORDER BY event_id") == [1, 2])
            #expect(try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'presence_event'") == 3)
            #expect(try String.fetchOne(db, sql: "SELECT subjects FROM webhook") == "scanners")
            #expect(try Int64.fetchOne(db, sql: "SELECT after_tag_position_id FROM presence_cursor") == 1)
            try db.execute(sql: """
                INSERT INTO webhook (url, secret, events, subjects, created_ms) VALUES ('https://example.org/tags', 'whsec_y', 'entered,away', 'tags', 0);
                INSERT INTO presence_event (kind, place, floor_id, time_ms, tag_id) VALUES ('entered', 'floor', 1, 40, 1);
                INSERT INTO presence_event (scanner_id, kind, time_ms) VALUES ('default', 'away', 50);
                INSERT INTO presence_event (scanner_id, kind, time_ms, tag_id) VALUES ('default', 'missingTagHeard', 60, 1);
                """)
            #expect(try Int64.fetchAll(db, sql: "SELECT id FROM presence_event ORDER BY id") == [1, 2, 4, 5, 6])
            let deliveries = try Row.fetchAll(db, sql: "SELECT webhook_id, event_id FROM webhook_delivery ORDER BY webhook_id, event_id")
                .map { [$0["webhook_id"] as Int64, $0["event_id"] as Int64] }
            #expect(deliveries == [[1, 1], [1, 2], [1, 5], [1, 6], [2, 4]])
            for refused in [
                "INSERT INTO presence_event (kind, time_ms) VALUES ('away', 70)",
                "INSERT INTO presence_event (scanner_id, kind, time_ms, tag_id) VALUES ('default', 'away', 70, 1)",
                "INSERT INTO presence_event (kind, time_ms, tag_id) VALUES ('missingTagHeard', 70, 1)",
            ] {
                #expect(throws: DatabaseError.self, "\(refused)") { try db.execute(sql: refused) }
            }
            try db.execute(sql: "DELETE FROM tag")
            #expect(try Int64.fetchAll(db, sql: "SELECT id FROM presence_event ORDER BY id") == [1, 5], "a tag's events go with it")
        }
    }

    /// `tag_event` goes: a tag event that has its presence twin is not copied again; one that
    /// has none (written before `v4-tag-presence-events`) is, after every presence event, on its
    /// scanner's floor, without queueing a webhook delivery; the tag's events then read as before.
    @Test func tagEventsMoveIntoPresenceEventsOnceAndTheirTableGoes() async throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v4-tag-presence-events")
        try await queue.write { db in
            try db.execute(sql: """
                INSERT INTO webhook (url, secret, events, created_ms) VALUES ('https://example.org/hook', 'whsec_x', 'missingTagHeard', 0);
                INSERT INTO floor (building, name, level) VALUES ('', 'Ground', 0);
                INSERT INTO scanner_placement (scanner_id, floor_id, x, y, height, path_loss_exponent) VALUES ('default', 1, 0, 0, 1, 2);
                INSERT INTO tag (name, identity, tx_power, missing, missing_heard, height, metadata) VALUES ('Bike', 'address:02:00:00:00:00:01', -59, 1, 1, 1, '{}');
                INSERT INTO tag_event (tag_id, kind, time_ms, scanner_id) VALUES (1, 'missingTagHeard', 10, 'default');
                INSERT INTO tag_event (tag_id, kind, time_ms, scanner_id) VALUES (1, 'missingTagHeard', 20, 'default');
                INSERT INTO presence_event (scanner_id, kind, time_ms) VALUES ('default', 'away', 15);
                INSERT INTO presence_event (scanner_id, kind, time_ms, tag_id, floor_id) VALUES ('default', 'missingTagHeard', 20, 1, 1);
                """)
        }
        try AppDatabase.migrator.migrate(queue)
        let database = try AppDatabase(queue)
        let events = try await database.presenceEvents(matching: PresenceEventFilter(tagID: 1), after: 0, limit: 10).items
        #expect(events.map(\.id) == [2, 3] && events.map(\.time.milliseconds) == [20, 10])
        #expect(events.allSatisfy { $0.kind == .missingTagHeard && $0.scannerID == .default && $0.tagID == 1 })
        let (floors, deliveries, tagEventTable) = try await queue.read { db in
            (
                try Int64.fetchAll(db, sql: "SELECT floor_id FROM presence_event WHERE tag_id = 1 ORDER BY id"),
                try Int64.fetchAll(db, sql: "SELECT event_id FROM webhook_delivery ORDER BY event_id"),
                try db.tableExists("tag_event")
            )
        }
        #expect(floors == [1, 1])
        #expect(deliveries == [2], "only the event queued when it happened")
        #expect(!tagEventTable)
    }

    @Test func aFreshDatabaseHoldsTheSeedScannerAndASurveyVersion() async throws {
        let database = try AppDatabase.inMemory()
        #expect(try await database.scanners() == [ScanContract.Scanner(id: .default, name: ScannerID.default.rawValue)])
        let seed = try await database.currentSwitch(of: .default)
        #expect(seed == ScanSwitch.initial(for: .default, at: seed.changedAt))
        let version = try await database.surveyVersion()
        #expect(version.version == 1)
        #expect(UUID(uuidString: version.token) != nil, "token \(version.token)")
    }

    /// A database file the shipped code filled (`shipped-with-rows.sql`), opened (so migrated) as
    /// switchd opens it, for the length of `body`.
    static func withShippedDatabase(_ body: (AppDatabase) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchd-shipped-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let dump = try String(contentsOf: Self.fixtures.appendingPathComponent("shipped-with-rows.sql"), encoding: .utf8)
        let shipped = try DatabaseQueue(path: directory + "/" + AppDatabase.fileName)
        try await shipped.writeWithoutTransaction { db in try db.execute(sql: dump) }
        try shipped.close()
        try await body(try AppDatabase.open(stateDirectory: directory))
    }

    /// `v4-scanner-delete` on a database with readings: every batch is kept with its row ID (so
    /// its readings still name it), readings must still name a batch, and a scanner that
    /// uploaded can be deleted with its readings and the radio map kept. The survey-version
    /// trigger made again on `batch` still counts survey readings stored.
    @Test func aScannerThatUploadedIsDeletedWithItsReadingsKept() async throws {
        try await Self.withShippedDatabase { database in
            let piLab = try ScannerID("pi-lab")
            func readBatches() throws -> [Row] {
                try database.writer.read { db in try Row.fetchAll(db, sql: "SELECT * FROM batch ORDER BY id") }
            }
            let batches = try readBatches()
            #expect(!batches.isEmpty && batches.allSatisfy { $0["scanner_id"] == "pi-lab" })
            let (map, version) = try await database.radioMap()

            let deletion = try await database.deleteScanner(piLab, at: .nowInMilliseconds(), mqtt: nil)
            #expect(deletion.lastRevision == 3 && deletion.positionsDeleted == 1)
            #expect(try readBatches() == batches)
            let after = try await database.radioMap()
            #expect(after.map == map && after.version == version)
            let readings = try await database.measurements(matching: MeasurementFilter(), after: 0, limit: 10).items
            #expect(readings.map(\.sequence) == [1, 2] && readings.allSatisfy { $0.scannerID == piLab })
            let violations = try database.writer.read { db in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check") }
            #expect(violations.isEmpty)
            try await database.writer.write { db in
                #expect(throws: DatabaseError.self, "a reading still names a batch") {
                    try db.execute(sql: """
                        INSERT INTO measurement (uuid, batch_id, scanner_id, revision, mode, kind, time_ms, rssi, scan, address)
                        VALUES (x'00', 999, 'pi-lab', 2, 'locate', 'wifi', 0, -60, 0, 1)
                        """)
                }
            }
            await #expect(throws: StoreError.notFound("no scanner pi-lab")) {
                try await database.deleteScanner(piLab, at: .nowInMilliseconds(), mqtt: nil)
            }

            // Registered again, numbering on; a survey stored under it still moves the version.
            _ = try await database.createScanner(NewScanner(id: piLab), at: .nowInMilliseconds())
            #expect(try await database.currentSwitch(of: piLab).revision == 4)
            let survey = try await database.updateSwitch(
                of: piLab, with: SwitchPatch(scanning: true, mode: .survey, locationID: .set(1)), at: .nowInMilliseconds()
            )
            _ = try await database.ingest(Readings.batch([Readings.wifi()], revision: survey.scanSwitch.revision, scanner: piLab), at: .nowInMilliseconds())
            #expect(try await database.surveyVersion().version == version.version + 1)
        }
    }

    @Test func aDatabaseTheShippedCodeFilledOpensWithEveryRow() async throws {
        try await Self.withShippedDatabase { database in
            try await Self.checkShippedRows(database)
        }
    }

    static func checkShippedRows(_ database: AppDatabase) async throws {
        #expect(try await Self.schema(of: database.writer) == Self.schema(of: AppDatabase.inMemory().writer), "migrated like a fresh one")
        #expect(try await database.mqttOutboxDepth() == 0)

        let floors = try await database.floors()
        #expect(floors.map(\.name) == ["Ground", "First"])
        #expect(floors.first?.scale == PlanScale(metresPerPixel: 0.05, originX: 1, originY: 2))
        #expect(floors.first?.plan?.contentType == PlanImageFormat.svg.mediaType)
        #expect(try await database.plan(ofFloor: 1).format == .svg)
        #expect(try await database.rooms(onFloor: nil).map(\.name) == ["Lab", "Stairwell"])
        let locations = try await database.locations(inRoom: nil, onFloor: nil)
        #expect(locations == [
            Location(id: 1, roomID: 1, floorID: 1, name: "2.5,3", x: 2.5, y: 3),
            Location(id: 2, roomID: 2, floorID: 2, name: "landing", x: 4, y: 1),
        ])
        let links = try await database.links(touching: nil)
        #expect(links.map(\.kind) == [.stairs])
        #expect(links.first.map { $0.distanceMetres > NewLink.storeyHeightMetres } == true)
        let beacons = try await database.beacons(onFloor: nil)
        #expect(beacons.map(\.beaconID) == [BeaconID(uuid: Readings.beaconUUID, major: 1, minor: 2)])
        #expect(beacons.first?.metadata == ["label": "door"])
        #expect(try await database.scanners().map(\.id.rawValue) == ["default", "pi-lab"])

        let piLab = try ScannerID("pi-lab")
        let scanSwitch = try await database.currentSwitch(of: piLab)
        #expect(scanSwitch.revision == 3 && !scanSwitch.scanning && scanSwitch.stoppedBy == .turnedOff)
        #expect(scanSwitch.mode == .survey && scanSwitch.locationID == 1 && scanSwitch.roomID == 1)

        let slice = try await database.measurements(matching: MeasurementFilter(), after: 0, limit: 10)
        #expect(slice.endOfFeed == 2)
        #expect(slice.items.map(\.sequence) == [1, 2])
        #expect(slice.items.map(\.measurement.kind) == [.wifi, .ble])
        #expect(slice.items.map(\.measurement.rssi) == [-61, -72])
        #expect(slice.items.allSatisfy { $0.mode == .survey && $0.locationID == 1 && $0.scannerID == piLab && $0.switchRevision == 2 })
        #expect(slice.items.first?.batchID == UUID(uuidString: "1B4E28BA-2FA1-41D2-883F-0016D3CCA427"))
        #expect(slice.items.first?.measurement.time == JSONCoding.parseDate("2026-11-22T06:50:00.123Z"))
        let (map, version) = try await database.radioMap()
        #expect(map.locations.first { $0.locationID == 1 }?.emitters.count == 2)
        #expect(version == (try await database.surveyVersion()))

        let positions = try await database.latestPositions(of: piLab)
        #expect(positions.map(\.method) == ["wifi-knn"])
        #expect(positions.first?.beacons?.first?.proximity == .near)
        // Presence starts after the positions already stored: no history replayed as events.
        let derivation = try await database.derivePresence(limit: 10) { _, _ in
            Issue.record("a position stored before the upgrade was read")
            return (PresenceState(settled: nil, candidate: nil, candidateSince: nil, away: false, lastPositionID: 0, lastTime: Date()), [])
        }
        #expect(derivation.positionsRead == 0 && derivation.cursor == positions.first?.id)
        let tokens = try await database.tokens()
        #expect(tokens.map(\.role) == [.admin, .reader])
        #expect(tokens.map { $0.revoked != nil } == [false, true])

        // It keeps working where the shipped code left off: IDs and sequences go on.
        #expect(try await database.createFloor(NewFloor(name: "Second")).id == 3)
        let next = try await database.updateSwitch(of: piLab, with: SwitchPatch(scanning: true), at: .nowInMilliseconds())
        let receipt = try await database.ingest(Readings.batch([Readings.wifi()], revision: next.scanSwitch.revision, scanner: piLab), at: .nowInMilliseconds())
        #expect(receipt.lastSequence == 3)
    }
}
