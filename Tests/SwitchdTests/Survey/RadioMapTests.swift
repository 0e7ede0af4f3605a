import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Positioning
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// `GET /v1/radiomap` on a real SQLite file: the fingerprints built from survey readings, and an
/// ETag that moves exactly when the survey does.
@Suite struct RadioMapTests {
    static let accessPoint = Emitter.accessPoint(BSSID(rawValue: 0x02_00_00_00_01_00))
    static let beacon = Emitter.beacon(BeaconID(uuid: Readings.beaconUUID, major: 1, minor: 2))

    @Test func fingerprintsGroupReadingsByLocationAndScanCycle() async throws {
        try await withTemporaryDatabase { database, _ in
            try await makeApp(database).test(.router) { client in
                let world = try await PositioningWorld.make(client)
                let registered = try await client.expect(.created, .post, "/v1/beacons", json: Beacons.new(floorID: world.ground.id), as: Beacon.self)
                let survey = try await client.startSurvey(at: world.a.id)
                // Scan 0 hears the access point twice (-60, -62: one sample of -61) and the beacon;
                // scan 1 hears the access point at -58. Two batches, one cycle split across them.
                _ = try await client.uploadNew(Readings.batch([Readings.wifi(scan: 0, rssi: -60), Readings.ble(scan: 0, rssi: -70)], revision: survey.revision))
                _ = try await client.uploadNew(Readings.batch([Readings.wifi(scan: 0, rssi: -62), Readings.wifi(scan: 1, rssi: -58)], revision: survey.revision))
                // Readings of a locate switch that stores them are not survey readings.
                let locate = try await client.patchSwitch(SwitchPatch(scanning: true, mode: .locate, roomID: .set(nil), locationID: .set(nil), storeData: true))
                _ = try await client.uploadNew(Readings.batch([Readings.wifi(scan: 0, rssi: -20)], revision: locate.revision))
                #expect(try await client.expect(.ok, get: "/v1/measurements", as: Page<StoredMeasurement>.self).items.count == 5)

                let map = try await client.expect(.ok, get: "/v1/radiomap", as: RadioMap.self)
                #expect(map.floors.map(\.floorID) == [world.annex.id, world.ground.id, world.first.id], "by building, level, ID")
                #expect(map.floors.allSatisfy { $0.pathLossExponent == nil })
                #expect(map.beacons == [registered])
                #expect(map.locations.map(\.locationID) == [world.a, world.b, world.c, world.d, world.e].map(\.id))
                let a = try #require(map.locations.first)
                #expect(a.floorID == world.ground.id && a.roomID == world.rooms[0].id && a.x == 0 && a.y == 0)
                #expect(a.scans == [[Self.accessPoint: -61, Self.beacon: -70], [Self.accessPoint: -58]])
                #expect(a.emitters == [
                    EmitterFingerprint(emitter: Self.accessPoint, mean: -59.5, spread: 1.5, count: 2),
                    EmitterFingerprint(emitter: Self.beacon, mean: -70, spread: 0, count: 1),
                ])
                #expect(map.locations.dropFirst().allSatisfy { $0.emitters.isEmpty && $0.scans.isEmpty }, "unsurveyed locations are listed empty")
            }
        }
    }

    @Test func etagAnswers304UntilTheSurveyChanges() async throws {
        try await withTemporaryDatabase { database, _ in
            try await makeApp(database).test(.router) { client in
                let world = try await PositioningWorld.make(client)
                var tag = try await Self.tag(client)

                // Unchanged: the same tag, and 304 with no body for it (also in a list, weak, or *).
                #expect(try await Self.tag(client) == tag)
                for header in [tag, "\"other\", \(tag)", "W/\(tag)", "*"] {
                    let notModified = try await client.get("/v1/radiomap", headers: [.ifNoneMatch: header])
                    #expect(notModified.status == .notModified)
                    #expect(notModified.body.readableBytes == 0)
                    #expect(notModified.headers[.eTag] == tag)
                }
                #expect(try await client.get("/v1/radiomap", headers: [.ifNoneMatch: "\"stale\""]).status == .ok)

                // Each of these changes the map, so the tag.
                let survey = try await client.startSurvey(at: world.b.id)
                #expect(try await Self.tag(client) == tag, "turning a switch on changes nothing the map shows")
                _ = try await client.uploadNew(Readings.batch([Readings.wifi()], revision: survey.revision))
                tag = try await Self.expectNewTag(client, after: tag, "a survey reading")

                let beacon = try await client.expect(.created, .post, "/v1/beacons", json: Beacons.new(floorID: world.first.id), as: Beacon.self)
                tag = try await Self.expectNewTag(client, after: tag, "a beacon registered")
                _ = try await client.expect(.ok, .put, "/v1/beacons/\(beacon.id)", json: Beacons.new(floorID: world.first.id, x: 7), as: Beacon.self)
                tag = try await Self.expectNewTag(client, after: tag, "a beacon moved")
                _ = try await client.expect(.ok, .put, "/v1/beacons/\(beacon.id)", json: Beacons.new(floorID: world.first.id, x: 7), as: Beacon.self)
                #expect(try await Self.tag(client) == tag, "a PUT that changes nothing")

                // Nothing the map shows: links, rooms without locations, positions, locate readings.
                _ = try await client.expect(.created, .post, "/v1/links", json: NewLink(from: world.a.id, to: world.b.id, kind: .walk), as: Link.self)
                _ = try await client.expect(.created, .post, "/v1/rooms", json: NewRoom(floorID: world.ground.id, name: "Store"), as: Room.self)
                _ = try await client.expect(.created, .post, "/v1/positions", json: Positions.new(floor: world.ground), as: Position.self)
                let locate = try await client.patchSwitch(SwitchPatch(scanning: true, mode: .locate, roomID: .set(nil), locationID: .set(nil), storeData: true))
                _ = try await client.uploadNew(Readings.batch([Readings.wifi(scan: 0)], revision: locate.revision))
                #expect(try await Self.tag(client) == tag, "links, empty rooms, positions and locate readings are not in the map")

                let cleared = try await client.expect(.ok, .post, "/v1/rooms/\(world.rooms[0].id)/clear", json: [String: String](), as: ClearedRoom.self)
                #expect(cleared.measurementsDeleted == 1)
                tag = try await Self.expectNewTag(client, after: tag, "a room cleared")
                _ = try await client.expect(.ok, .post, "/v1/rooms/\(world.rooms[0].id)/clear", json: [String: String](), as: ClearedRoom.self)
                #expect(try await Self.tag(client) == tag, "clearing an already clear room")

                _ = try await client.expect(.created, .post, "/v1/locations", json: NewLocation(roomID: world.rooms[1].id, x: 1, y: 1), as: Location.self)
                tag = try await Self.expectNewTag(client, after: tag, "a location created")
                #expect(try await client.execute(uri: "/v1/beacons/\(beacon.id)", method: .delete).status == .noContent)
                tag = try await Self.expectNewTag(client, after: tag, "a beacon deleted")
                #expect(try await client.execute(uri: "/v1/floors/\(world.annex.id)", method: .delete).status == .noContent)
                tag = try await Self.expectNewTag(client, after: tag, "a floor deleted")
                let map = try await client.expect(.ok, get: "/v1/radiomap", as: RadioMap.self)
                #expect(!map.floors.contains { $0.floorID == world.annex.id } && !map.locations.contains { $0.locationID == world.e.id })
            }
        }
    }

    /// A file written by the v1 schema gains the positioning tables and triggers on opening,
    /// and its survey is in the map.
    @Test func aV1DatabaseUpgradesWithItsSurvey() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchd-upgrade-\(UUID().uuidString)").path
        defer {
            do {
                try FileManager.default.removeItem(atPath: directory)
            } catch {
                Issue.record("could not remove \(directory): \(error)")
            }
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/" + AppDatabase.fileName
        do {
            let v1 = try DatabasePool(path: path, configuration: AppDatabase.configuration())
            try AppDatabase.migrator.migrate(v1, upTo: "v1-measurements")
            try await v1.write { db in
                try db.execute(sql: """
                    INSERT INTO floor (building, name, level) VALUES ('main', 'Ground', 0);
                    INSERT INTO room (floor_id, name) VALUES (1, 'Lab');
                    INSERT INTO location (room_id, name, x, y) VALUES (1, 'Door', 2, 3);
                    """)
            }
            try v1.close()
        }
        let database = try AppDatabase(DatabasePool(path: path, configuration: AppDatabase.configuration()))
        try await makeApp(database).test(.router) { client in
            let map = try await client.expect(.ok, get: "/v1/radiomap", as: RadioMap.self)
            #expect(map.locations == [RadioMapLocation(locationID: 1, floorID: 1, roomID: 1, x: 2, y: 3)])
            let tag = try await Self.tag(client)
            let survey = try await client.startSurvey(at: 1)
            _ = try await client.uploadNew(Readings.batch([Readings.ble()], revision: survey.revision))
            _ = try await Self.expectNewTag(client, after: tag, "a survey reading after the upgrade")
        }
    }

    @Test func theTagOfOneDatabaseNeverMatchesAnother() async throws {
        let first = try await makeApp(try .inMemory()).test(.router) { client in try await Self.tag(client) }
        let second = try await makeApp(try .inMemory()).test(.router) { client in try await Self.tag(client) }
        #expect(first != second)
    }

    @Test func aRepeatedRequestIsServedFromTheCache() async throws {
        let database = try AppDatabase.inMemory()
        let cache = RadioMapCache()
        let built = try await cache.current(from: database)
        // Written behind the triggers' back: a cached map is not rebuilt while the version stands.
        try await database.writer.write { db in try db.execute(sql: "INSERT INTO floor (building, name, level) VALUES ('main', 'Hidden', 0)") }
        try await database.writer.write { db in try db.execute(sql: "UPDATE survey_version SET version = \(built.version.version)") }
        #expect(try await cache.current(from: database).json == built.json)
        try await database.writer.write { db in try db.execute(sql: "UPDATE survey_version SET version = version + 1") }
        #expect(try await cache.current(from: database).json != built.json)
    }

    static func tag(_ client: some TestClientProtocol) async throws -> String {
        let response = try await client.get("/v1/radiomap")
        #expect(response.status == .ok)
        return try #require(response.headers[.eTag])
    }

    static func expectNewTag(_ client: some TestClientProtocol, after old: String, _ change: Comment) async throws -> String {
        let new = try await tag(client)
        #expect(new != old, change)
        #expect(try await client.get("/v1/radiomap", headers: [.ifNoneMatch: old]).status == .ok, change)
        return new
    }
}
