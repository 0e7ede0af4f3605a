import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// Real SQLite files: cascades, clearing a room, batch IDs that outlive deletes, reopening.
@Suite struct PersistenceTests {
    @Test func productionDatabaseIsAWALPoolWithForeignKeys() async throws {
        try await withTemporaryDatabase { database, directory in
            #expect(database.writer is DatabasePool)
            #expect(FileManager.default.fileExists(atPath: directory + "/" + AppDatabase.fileName))
            let (journal, foreignKeys) = try await database.writer.read { db in
                (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA foreign_keys"))
            }
            #expect(journal == "wal" && foreignKeys == 1)
            let migrations = try await database.writer.read { db in try AppDatabase.migrator.appliedIdentifiers(db) }
            #expect(migrations == [
                "v1-survey", "v1-scanners-and-switches", "v1-measurements", "v2-beacons", "v2-links", "v2-positions", "v2-survey-version",
                "v3-floor-plans",
                "v3-tokens",
                "v4-events-and-webhooks",
                "v4-tags",
                "v4-mqtt",
                "v4-georeference-and-allow-lists",
                "v4-tag-presence-events",
                "v4-emitter-summary",
                "v4-tag-events-in-presence",
                "v4-scanner-delete",
                "v4-history-indexes",
                "v4-walk-survey",
                "v4-emitter-summary-by-batch",
                "v4-feed-ends",
                "v4-tag-position-window",
                "v4-tag-track",
                "v4-mqtt-dead-letters",
                "v4-tags-in-presence",
                "v4-mqtt-published-tags",
                "v4-visitor-tokens",
                "v4-tag-keys",
                "v4-enrolment-codes",
                "v4-room-outlines",
                "v4-scanner-health",
                "v5-tag-reference-points",
                "v5-scanner-settings",
                "v5-beacon-telemetry",
                "v5-feed-marks",
                "v5-beacon-new-scanner",
                "v5-mqtt-bridge-status",
            ])
        }
    }

    @Test func deletingALocationDeletesItsMeasurementsOnly() async throws {
        try await withTemporaryDatabase { database, _ in
            try await makeApp(database).test(.router) { client in
                let spot = try await SurveySpot.make(client)
                let neighbour = try await client.expect(
                    .created, .post, "/v1/locations", json: NewLocation(roomID: spot.room.id, x: 5, y: 5), as: Location.self
                )
                let atSpot = try await client.startSurvey(at: spot.location.id)
                let doomed = Readings.batch([Readings.wifi(), Readings.ble()], revision: atSpot.revision)
                _ = try await client.uploadNew(doomed)
                let atNeighbour = try await client.startSurvey(at: neighbour.id)
                _ = try await client.uploadNew(Readings.batch([Readings.wifi(scan: 1)], revision: atNeighbour.revision))

                #expect(try await client.execute(uri: "/v1/locations/\(spot.location.id)", method: .delete).status == .noContent)

                let left = try await client.expect(.ok, get: "/v1/measurements", as: Page<StoredMeasurement>.self)
                #expect(left.items.map(\.locationID) == [neighbour.id])
                let counts = try await StoredCounts(database)
                #expect(counts.measurements == 1 && counts.batches == 2, "batches stay, so replays are still recognised")

                let replay = try await client.upload(doomed)
                #expect(replay.status == .ok)
                #expect(try decoded(BatchReceipt.self, replay).duplicate)
                #expect(try await StoredCounts(database) == counts)

                // History keeps the revision, with the deleted location cleared.
                let history = try await database.writer.read { db in
                    try Int64.fetchOne(db, sql: "SELECT location_id FROM switch_revision WHERE scanner_id = 'default' AND revision = ?", arguments: [atSpot.revision])
                }
                #expect(history == nil)
            }
        }
    }

    @Test func clearingARoomDeletesItsMeasurementsAndKeepsItsLocations() async throws {
        try await withTemporaryDatabase { database, _ in
            try await makeApp(database).test(.router) { client in
                let spot = try await SurveySpot.make(client, name: "Lab")
                let elsewhere = try await SurveySpot.make(client, name: "Office")
                let lab = try await client.startSurvey(at: spot.location.id)
                let cleared = Readings.batch([Readings.wifi(), Readings.ble(), Readings.wifi(scan: 1)], revision: lab.revision)
                _ = try await client.uploadNew(cleared)
                let office = try await client.startSurvey(at: elsewhere.location.id)
                _ = try await client.uploadNew(Readings.batch([Readings.ble()], revision: office.revision))

                let answer = try await client.expect(.ok, .post, "/v1/rooms/\(spot.room.id)/clear", json: [String: String](), as: ClearedRoom.self)
                #expect(answer == ClearedRoom(roomID: spot.room.id, measurementsDeleted: 3))

                #expect(try await client.expect(.ok, get: "/v1/rooms/\(spot.room.id)", as: Room.self) == spot.room)
                #expect(try await client.expect(.ok, get: "/v1/locations?room=\(spot.room.id)", as: [Location].self) == [spot.location])
                let left = try await client.expect(.ok, get: "/v1/measurements", as: Page<StoredMeasurement>.self)
                #expect(left.items.map(\.roomID) == [elsewhere.room.id])
                #expect(try await client.upload(cleared).status == .ok, "a cleared batch replayed is still a duplicate")

                // The room can be surveyed again.
                let again = try await client.startSurvey(at: spot.location.id)
                #expect(try await client.uploadNew(Readings.batch([Readings.wifi()], revision: again.revision)).stored == 1)
            }
        }
    }

    @Test func deletingAFloorCascadesAndSequencesAreNeverReused() async throws {
        try await withTemporaryDatabase { database, _ in
            try await makeApp(database).test(.router) { client in
                let spot = try await SurveySpot.make(client)
                let on = try await client.startSurvey(at: spot.location.id)
                _ = try await client.uploadNew(Readings.batch([Readings.wifi(), Readings.ble()], revision: on.revision))
                #expect(try await client.execute(uri: "/v1/floors/\(spot.floor.id)", method: .delete).status == .noContent)
                #expect(try await StoredCounts(database).measurements == 0)
                #expect(try await StoredCounts(database).rooms == 0)

                let next = try await SurveySpot.make(client)
                #expect(next.location.id > spot.location.id, "IDs of deleted locations are not given out again")
                let onAgain = try await client.startSurvey(at: next.location.id)
                _ = try await client.uploadNew(Readings.batch([Readings.wifi()], revision: onAgain.revision))
                let page = try await client.expect(.ok, get: "/v1/measurements", as: Page<StoredMeasurement>.self)
                #expect(page.items.map(\.sequence) == [3])
            }
        }
    }

    @Test func storedStateSurvivesReopening() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchd-reopen-\(UUID().uuidString)").path
        defer {
            do {
                try FileManager.default.removeItem(atPath: directory)
            } catch {
                Issue.record("could not remove \(directory): \(error)")
            }
        }
        let batch: MeasurementBatch
        do {
            let database = try AppDatabase.open(stateDirectory: directory)
            batch = try await makeApp(database).test(.router) { client in
                let spot = try await SurveySpot.make(client)
                let on = try await client.startSurvey(at: spot.location.id)
                let batch = Readings.batch([Readings.wifi()], revision: on.revision)
                _ = try await client.uploadNew(batch)
                return batch
            }
        }
        let reopened = try AppDatabase.open(stateDirectory: directory)
        try await makeApp(reopened).test(.router) { client in
            #expect(try await client.upload(batch).status == .ok)
            let page = try await client.expect(.ok, get: "/v1/measurements", as: Page<StoredMeasurement>.self)
            #expect(page.items.map(\.batchID) == [batch.batchID])
            #expect(try await client.expect(.ok, get: "/v1/scanners/default/switch", as: ScanSwitch.self).scanning)
        }
    }

    /// A database a newer switchd migrated is refused, the unknown migration named in the
    /// message switchd stops with, and left as it is: a downgraded switchd neither runs this
    /// version's migrations over it nor serves from a schema it does not know.
    @Test func aDatabaseMigratedByANewerSwitchdIsRefusedAndLeftAsItIs() async throws {
        try await withTemporaryDatabase { database, directory in
            try await database.writer.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v9-from-a-newer-switchd')")
                try db.execute(sql: "DROP TABLE enrolment_code")
            }
            let refusal = NewerSchemaError(unknownMigrations: ["v9-from-a-newer-switchd"])
            #expect(throws: refusal) {
                _ = try AppDatabase.open(stateDirectory: directory)
            }
            #expect("\(refusal)".contains("migrated by a newer switchd") && "\(refusal)".contains("v9-from-a-newer-switchd"))
            let tables = try await database.writer.read { db in try db.tableExists("enrolment_code") }
            #expect(!tables, "no migration ran again")
        }
    }
}
